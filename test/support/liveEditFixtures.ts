/**
 * What the live edit tests share: a fixture folder copied where a test may edit it, edits made the
 * way an agent makes them (the file on disk), and waits for the program's output.
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { expect } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import type { McpTestClient } from '../../src/demo/mcpClient.js';

/** A stop as the answers carry it (the parts the tests read). */
export interface Stop {
  reason: string;
  threadId: number;
  frame: { name: string; file?: string; line: number };
}

/** session_apply_changes' structured answer. */
export interface Applied {
  sessionId: string;
  state: string;
  changes: { file: string; status: string; items: string[]; reason?: string; nextStep?: string }[];
  staleFrames: { threadId: number; name: string; file?: string; line?: number }[];
  notes: string[];
  stop?: Stop;
}

/** What launch, continue and wait answer (the parts the tests read). */
export interface Wait {
  sessionId: string;
  status: string;
  stop?: Stop;
  outputTail?: string;
}

/** The shop server of the live edit fixtures copied where a test may edit it; `line` finds a `BP:` marker of the pricing file. */
export function shopCopy(folder: string, server: string, pricing: string) {
  const dir = copyFixture(folder, [server, pricing]);
  const edited = join(dir, pricing);
  return { server: join(dir, server), pricing: edited, line: (marker: string) => markerLine(edited, `BP:${marker}`) };
}

/** A copy of `folder` (its `links` entries symlinked, not copied) in a fresh temporary folder. */
export function copyFixture(folder: string, entries: string[], links: string[] = []): string {
  const copy = mkdtempSync(join(tmpdir(), 'dbb-live-'));
  for (const entry of entries) cpSync(join(folder, entry), join(copy, entry), { recursive: true });
  for (const link of links) symlinkSync(join(folder, link), join(copy, link));
  return copy;
}

/** Replaces `before` with `after` in the file, as an editor would; fails when `before` is not there. */
export function editFile(file: string, before: string, after: string): void {
  const text = readFileSync(file, 'utf8');
  expect(text, `${file} should contain ${before}`).toContain(before);
  writeFileSync(file, text.replace(before, after));
}

/** The program's output from `cursor` on, once it matches `pattern` (polled; fails after `timeoutMs`). */
export async function outputMatching(client: McpTestClient, sessionId: string, pattern: RegExp, cursor = 0, timeoutMs = 15_000): Promise<{ text: string; cursor: number }> {
  const deadline = Date.now() + timeoutMs;
  let text = '';
  for (;;) {
    const r = await client.call<{ output: string; cursor: number }>('session_output', { sessionId, cursor, maxChars: 100_000 });
    text += r.structured.output;
    cursor = r.structured.cursor;
    if (pattern.test(text)) return { text, cursor };
    if (Date.now() > deadline) throw new Error(`no output matching ${pattern} within ${timeoutMs} ms; got:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A program started outside the debugger, to attach to on `port`; `printed` waits for its output from `from` on to match. */
export async function startForAttach(command: string, args: (port: number) => string[]) {
  const port = await new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
  const child = spawn(command, args(port), { stdio: ['ignore', 'pipe', 'ignore'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return {
    port,
    kill: () => child.kill('SIGKILL'),
    get printedSoFar() {
      return output.length;
    },
    async printed(pattern: RegExp, from = 0, timeoutMs = 15_000): Promise<void> {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(output.slice(from)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      expect(output.slice(from)).toMatch(pattern);
    },
  };
}

/** session_attach to `port`, again while the program does not listen yet. */
export async function attachWhenListening(client: McpTestClient, language: string, port: number): Promise<void> {
  let attached: Awaited<ReturnType<typeof client.call>> | undefined;
  for (let i = 0; i < 50 && (!attached || attached.isError); i++) {
    if (attached) await new Promise((r) => setTimeout(r, 200));
    attached = await client.call('session_attach', { language, port });
  }
  expect(attached?.isError, attached?.text).toBe(false);
}
