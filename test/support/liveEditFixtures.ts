/**
 * What the live edit tests share: a fixture folder copied where a test may edit it, edits made the
 * way an agent makes them (the file on disk), and waits for the program's output.
 */
import { cpSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
