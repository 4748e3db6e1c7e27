/**
 * .NET live edit through the real MCP server over stdio: an agent stops at a bug, edits the C# file
 * on disk, session_apply_changes, and the program runs the fix without a restart (Edit and Continue
 * with Roslyn's deltas). A batch job and a web service, a rude edit refused with the program
 * untouched, a breakpoint on a line the edit added, two edits in a row.
 */
import { createServer } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildEditableFixture, type EditableFixture } from '../support/liveEditFixture.js';
import { requireRuntime } from '../support/runtimes.js';
import { stopActiveSessions } from '../support/sessions.js';

const dotnet = findDotnet();
const run = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

interface Stop {
  reason: string;
  threadId: number;
  frame: { name: string; file?: string; line: number };
  source?: { line: number; text: string; current?: boolean }[];
}
interface Wait {
  sessionId: string;
  status: 'stopped' | 'exited' | 'timeout';
  state: string;
  stop?: Stop;
  exitCode?: number;
}
interface Applied {
  sessionId: string;
  state: string;
  changes: { file: string; status: string; items: string[]; reason?: string; nextStep?: string }[];
  staleFrames: { threadId: number; name: string }[];
  notes: string[];
  stop?: Stop;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

describe.runIf(run)('.NET live edit through MCP', () => {
  let client: McpTestClient;
  let app: EditableFixture;
  let pricing: string;

  beforeAll(async () => {
    app = buildEditableFixture('liveedit', dotnet!);
    pricing = app.file('Pricing.cs');
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-liveedit-')) } });
  }, 300_000);
  afterAll(async () => {
    await client?.close();
    app?.remove();
  });
  afterEach(async () => {
    await stopActiveSessions(client);
    app.restore();
  });

  async function launchAt(marker: string, file = pricing, args: string[] = []): Promise<Wait> {
    const r = await client.call<Wait>('session_launch', {
      program: app.dll,
      args,
      breakpoints: [{ file, line: app.line(file.split('/').pop()!, marker) }],
      waitForStop: true,
      timeoutMs: 60_000,
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured.stop?.reason, r.text).toBe('breakpoint');
    return r.structured;
  }

  async function apply(sessionId: string): Promise<{ structured: Applied; text: string }> {
    const r = await client.call<Applied>('session_apply_changes', { sessionId, timeoutMs: 180_000 }, { timeoutMs: 240_000 });
    expect(r.isError, r.text).toBe(false);
    return r;
  }

  async function runToEnd(sessionId: string): Promise<string> {
    await client.call('breakpoint_remove', { sessionId, all: true });
    const end = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 60_000 });
    expect(end.structured.status, end.text).toBe('exited');
    return (await client.call<{ output: string }>('session_output', { sessionId })).structured.output;
  }

  it('fixes the method the program is stopped in: continuing prints the right totals, no restart', async () => {
    const { sessionId, stop } = await launchAt('add');
    expect(stop!.frame.name).toContain('Pricing.TotalAsync');
    app.edit('Pricing.cs', 'total += item.UnitPrice;', 'total += item.UnitPrice * item.Quantity;');
    const { structured, text } = await apply(sessionId);
    expect(structured.changes).toEqual([expect.objectContaining({ file: pricing, status: 'applied', items: ['LiveEdit.Pricing.TotalAsync (body)'] })]);
    expect(text).toContain('Applied 1 file');
    expect(structured.notes.join('\n')).toMatch(/TotalAsync \(Pricing.cs:\d+\) moves to the new code at its next statement/);
    expect(structured.state).toBe('stopped');
    // The stop is read again from the new source: the edited line is the current one.
    expect(structured.stop?.source?.find((l) => l.current)?.text).toContain('item.UnitPrice * item.Quantity');
    const output = await runToEnd(sessionId);
    expect(output).toContain('ada: 4.75');
    expect(output).toContain('bob: 3.00');
    expect(output).toContain('cy: 4.00');
  }, 300_000);

  it('refuses a rude edit with Roslyn\'s diagnostic and leaves the program as it was; a comment alone has nothing to apply', async () => {
    const { sessionId } = await launchAt('add');
    // A file no module of the program was built from: nothing of it runs.
    const scratch = join(app.dir, '..', 'Scratch.cs');
    writeFileSync(scratch, 'class Scratch { }\n');
    const unknown = await client.call('session_apply_changes', { sessionId, files: [scratch] });
    expect(unknown.isError).toBe(true);
    expect(unknown.text).toMatch(/^INVALID_ARGUMENT: The program has not loaded .*Scratch\.cs, so there is nothing of it to change\.\nNext: /);
    // A comment changes nothing the program runs: Roslyn has no update, and nothing is applied.
    app.edit('Pricing.cs', '// BP:add', '// BP:add (a price per unit)');
    const comment = await apply(sessionId);
    expect(comment.structured.changes).toEqual([{ file: pricing, status: 'unchanged', items: [] }]);
    expect(comment.structured.notes).toContain('the edit changes nothing the program runs (comments or whitespace): nothing to apply');
    app.edit('Pricing.cs', 'public record Cart(', 'public record struct Cart(');
    const { structured, text } = await apply(sessionId);
    const [change] = structured.changes;
    expect(change).toMatchObject({ file: pricing, status: 'refused' });
    expect(change!.reason).toMatch(/ENC0015: Updating the kind of a type requires restarting the application/);
    expect(change!.nextStep).toContain('session_restart');
    expect(text).toContain('refused 1 file');
    // Untouched: the old (buggy) code still runs.
    expect(await runToEnd(sessionId)).toContain('ada: 1.75');
  }, 300_000);

  it('binds a breakpoint on a line the edit added, and the stop shows the new source', async () => {
    const { sessionId } = await launchAt('add');
    app.edit('Pricing.cs', '        return total; // BP:return', '        var rounded = Math.Round(total * 1.10m, 2); // BP:tax\n        return rounded; // BP:return');
    await apply(sessionId);
    const taxLine = app.line('Pricing.cs', 'tax');
    await client.call('breakpoint_remove', { sessionId, all: true });
    const set = await client.call<{ breakpoint: { verified: boolean; line: number } }>('breakpoint_set', { sessionId, file: pricing, line: taxLine });
    expect(set.isError, set.text).toBe(false);
    const hit = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
    expect(hit.structured.status, hit.text).toBe('stopped');
    expect(hit.structured.stop!.frame.line).toBe(taxLine);
    expect(hit.structured.stop!.source?.find((l) => l.current)?.text).toContain('Math.Round(total * 1.10m, 2)');
    const output = await runToEnd(sessionId);
    expect(output).toContain('ada: 1.92'); // 1.75 × 1.10, rounded to even
  }, 300_000);

  it('applies two edits in a row (the second on top of the first)', async () => {
    const program = app.file('Program.cs');
    const { sessionId } = await launchAt('printed', program);
    app.edit('Pricing.cs', 'total += item.UnitPrice;', 'total += item.UnitPrice * item.Quantity;');
    expect((await apply(sessionId)).structured.changes[0]?.status).toBe('applied');
    const second = await client.call<Wait>('execution_continue', { sessionId, timeoutMs: 30_000 });
    expect(second.structured.status, second.text).toBe('stopped');
    app.edit('Pricing.cs', '        return total; // BP:return', '        return Math.Round(total * 1.10m, 2); // BP:return');
    expect((await apply(sessionId)).structured.changes[0]?.status).toBe('applied');
    const output = await runToEnd(sessionId);
    expect(output).toContain('ada: 1.75'); // computed before the first edit
    expect(output).toContain('bob: 3.00'); // the first edit
    expect(output).toContain('cy: 4.40'); // both
  }, 300_000);

  it('fixes a running web service: the next request gets the new answer', async () => {
    const port = await freePort();
    const launch = await client.call<Wait>('session_launch', { program: app.dll, args: ['serve', String(port)] });
    expect(launch.isError, launch.text).toBe(false);
    const { sessionId } = launch.structured;
    const get = async (path: string) => (await fetch(`http://127.0.0.1:${port}${path}`)).text();
    const listening = async () => (await client.call<{ output: string }>('session_output', { sessionId })).structured.output.includes('listening');
    for (let i = 0; i < 200 && !(await listening()); i++) await new Promise((r) => setTimeout(r, 100));
    expect(await get('/quote?customer=ada')).toBe('Helo ada, your price is 10.00');
    app.edit('QuoteServer.cs', 'return $"Helo {customer}', 'return $"Hello {customer}');
    const { structured } = await apply(sessionId);
    expect(structured.changes).toEqual([expect.objectContaining({ status: 'applied', items: ['LiveEdit.Handlers.Quote (body)'] })]);
    expect(structured.state).toBe('running');
    expect(await get('/quote?customer=ada')).toBe('Hello ada, your price is 10.00');
    expect(await get('/stop')).toBe('bye');
    const end = await client.call<Wait>('breakpoint_wait', { sessionId, timeoutMs: 30_000 });
    expect(end.structured.status).toBe('exited');
  }, 300_000);
});
