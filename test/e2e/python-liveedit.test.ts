/**
 * Live edit on Python through the real MCP server over stdio and debugpy: an asyncio shop server
 * that answers requests in a loop, edited on disk and changed in the running program with
 * session_apply_changes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { attachWhenListening, editFile, outputMatching, shopCopy, startForAttach, type Applied, type Wait } from '../support/liveEditFixtures.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/e2e/python/live/', import.meta.url));
const run = requireRuntime('python with debugpy', ['/usr/bin/python3', 'python3'].some((py) => hasCommand(py, ['-c', 'import debugpy'])));

describe.runIf(run)('python live edit', () => {
  let client: McpTestClient;

  beforeAll(async () => {
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-py-live-state-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(() => client.stopActiveSessions());

  const shop = () => shopCopy(FIXTURES, 'shop_server.py', 'pricing.py');

  describe('a program stopped in the buggy function', () => {
    it('gives the function its new code: the running call finishes on the old one (and is named), the next requests get the fixed answer', async () => {
      const { server, pricing, line } = shop();
      const launch = await client.call<Wait>('session_launch', { program: server, args: ['4'], breakpoints: [{ file: pricing, line: line('price_bug') }], waitForStop: true });
      expect(launch.structured.stop?.frame).toMatchObject({ name: 'price_of', line: line('price_bug') });

      editFile(pricing, 'return unit  # BP:price_bug', 'return unit * qty  # BP:price_bug');
      const applied = await client.call<Applied>('session_apply_changes', {});
      expect(applied.isError, applied.text).toBe(false);
      expect(applied.structured.changes).toEqual([{ file: pricing, status: 'applied', items: ['price_of (function body)'] }]);
      expect(applied.structured.staleFrames).toEqual([{ threadId: launch.structured.stop!.threadId, name: 'price_of', file: pricing, line: line('price_bug') }]);
      expect(applied.text).toContain(`Still running the old code until they return: price_of (pricing.py:${line('price_bug')}, thread ${launch.structured.stop!.threadId}).`);
      expect(applied.text).toContain('The stop below runs the code from before the edit');

      await client.call('breakpoint_remove', { all: true });
      const end = await client.call<Wait>('execution_continue', {});
      expect(end.structured.status).toBe('exited');
      expect(end.structured.outputTail).toContain('#1 3 x pen = 2\n#2 3 x ink = 12\n#3 3 x pad = 3\n#4 3 x pen = 6');
    });

    it('stops at a breakpoint on a line the edit added, and steps on the new lines', async () => {
      const { server, pricing, line } = shop();
      const handle = markerLine(server, 'BP:handle');
      await client.call('session_launch', { program: server, args: ['3'], breakpoints: [{ file: server, line: handle }], waitForStop: true });

      editFile(pricing, '    return unit  # BP:price_bug (the quantity is forgotten)', '    total = unit * qty  # BP:new_line\n    return total');
      const applied = await client.call<Applied>('session_apply_changes', { files: [pricing] });
      expect(applied.structured.changes).toEqual([{ file: pricing, status: 'applied', items: ['price_of (function body)'] }]);
      expect(applied.structured.staleFrames).toEqual([]);

      const set = await client.call<{ breakpoint: { status: string; line: number } }>('breakpoint_set', { file: pricing, line: line('new_line') });
      expect(set.structured.breakpoint.status).toBe('verified');
      const hit = await client.call<Wait>('execution_continue', {});
      expect(hit.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'price_of', file: pricing, line: line('new_line') } });
      expect(hit.text).toContain('total = unit * qty  # BP:new_line');
      const stepped = await client.call<Wait>('execution_step', { kind: 'over' });
      expect(stepped.structured.stop?.frame).toMatchObject({ name: 'price_of', file: pricing, line: line('new_line') + 1 });
      expect(stepped.text).toContain('return total');
    });
  });

  describe('a running server (requests answered in a loop)', () => {
    it('fixes the handler while it serves: the next request gets the new answer, and a new function can be called', async () => {
      const { server, pricing } = shop();
      const { structured } = await client.call<Wait>('session_launch', { program: server, args: ['300'] });
      const before = await outputMatching(client, structured.sessionId, /#2 3 x ink = 4\n/);

      editFile(pricing, 'return unit  # BP:price_bug', 'return discounted(unit * qty)  # BP:price_bug');
      editFile(pricing, 'def price_of(sku, qty):', 'def discounted(amount):\n    return amount - 1\n\n\ndef price_of(sku, qty):');
      const applied = await client.call<Applied>('session_apply_changes', {});
      expect(applied.structured).toMatchObject({ state: 'running', changes: [{ file: pricing, status: 'applied', items: ['new function discounted', 'price_of (function body)'] }] });

      const after = await outputMatching(client, structured.sessionId, /#\d+ 3 x ink = 11\n/, before.cursor);
      expect(after.text).not.toMatch(/= 11\n[^]*x ink = 4\n/);
    });

    it('refuses a change to module-level code (it would have to run again), and the program serves on untouched', async () => {
      const { server, pricing } = shop();
      const { structured } = await client.call<Wait>('session_launch', { program: server, args: ['300'] });
      await outputMatching(client, structured.sessionId, /#2 /);

      editFile(pricing, 'PRICES = {"pen": 2, "ink": 4, "pad": 1}', 'PRICES = {"pen": 2, "ink": 4, "pad": 1}\nprint("pricing reloaded", flush=True)');
      editFile(pricing, 'return unit  # BP:price_bug', 'return unit * qty  # BP:price_bug');
      const refused = await client.call<Applied>('session_apply_changes', {});
      expect(refused.structured.changes).toEqual([
        {
          file: pricing,
          status: 'refused',
          items: [],
          reason: 'module-level code changed (line 3): it ran when the module was loaded and is not run again',
          nextStep: 'keep the edit inside functions and methods, or session_restart to run the program with it',
        },
      ]);
      const cursor = (await client.call<{ cursor: number }>('session_output', { sessionId: structured.sessionId })).structured.cursor;
      const later = await outputMatching(client, structured.sessionId, /x pad = 1\n[^]*x pen = 2\n/, cursor);
      expect(later.text).not.toContain('reloaded');

      editFile(pricing, '\nprint("pricing reloaded", flush=True)', '');
      editFile(pricing, 'return unit * qty  # BP:price_bug', 'return unit * (qty  # BP:price_bug');
      const syntax = await client.call<Applied>('session_apply_changes', { files: [pricing] });
      expect(syntax.structured.changes[0]).toMatchObject({ status: 'refused', reason: expect.stringMatching(/^SyntaxError: '\(' was never closed \(line 19, column \d+\)$/) });
    });

    it('refuses a changed class layout while instances of it live', async () => {
      const { server, pricing } = shop();
      const handle = markerLine(server, 'BP:handle');
      await client.call('session_launch', { program: server, args: ['300'], breakpoints: [{ file: server, line: handle }], waitForStop: true });
      editFile(pricing, 'class Cart:', 'class Cart(dict):');
      const refused = await client.call<Applied>('session_apply_changes', {});
      expect(refused.structured.changes[0]).toMatchObject({ status: 'refused', reason: 'class Cart changed its layout (bases, metaclass, decorators or __slots__) and 1 instance of it lives' });
    });

    it('answers a file the program never loaded with INVALID_ARGUMENT', async () => {
      const { server } = shop();
      await client.call('session_launch', { program: server, args: ['300'] });
      const r = await client.call('session_apply_changes', { files: [join(FIXTURES, '..', 'loop.py')] });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^INVALID_ARGUMENT: The program has not loaded .*loop\.py, so there is nothing of it to change\./);
    });
  });

  describe('a server the debugger attached to', () => {
    it('changes a module the program loaded before the attach: the next request gets the new answer', async () => {
      const { server, pricing } = shop();
      const program = await startForAttach('/usr/bin/python3', (port) => ['-m', 'debugpy', '--listen', `127.0.0.1:${port}`, server, '300']);
      try {
        await program.printed(/#2 3 x ink = 4\n/);
        await attachWhenListening(client, 'python', program.port);

        editFile(pricing, 'return unit  # BP:price_bug', 'return unit * qty  # BP:price_bug');
        const applied = await client.call<Applied>('session_apply_changes', {});
        expect(applied.structured).toMatchObject({ state: 'running', changes: [{ file: pricing, status: 'applied', items: ['price_of (function body)'] }] });
        await program.printed(/#\d+ 3 x ink = 12\n/, program.printedSoFar);
      } finally {
        program.kill();
      }
    });
  });
});
