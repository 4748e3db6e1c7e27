/**
 * Live edit on Node.js through the real MCP server over stdio: a shop server that answers requests
 * in a loop, edited on disk and changed in the running program with session_apply_changes.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { attachWhenListening, copyFixture, editFile, outputMatching, shopCopy, startForAttach, type Applied, type Wait } from '../support/liveEditFixtures.js';
import { requireRuntime } from '../support/runtimes.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/node/', import.meta.url));
const tsx = requireRuntime('tsx (npm ci --prefix test/fixtures/node/ts)', existsSync(join(FIXTURES, 'ts/node_modules/tsx/package.json')));

describe('node live edit', () => {
  let client: McpTestClient;

  beforeAll(async () => {
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-node-live-state-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(() => client.stopActiveSessions());

  const shop = () => shopCopy(join(FIXTURES, 'live'), 'server.js', 'pricing.js');

  describe('a program stopped in the buggy function', () => {
    it('runs the fixed function again from its start, and the request it was answering gets the fixed answer', async () => {
      const { server, pricing, line } = shop();
      const launch = await client.call<Wait>('session_launch', { program: server, args: ['3'], breakpoints: [{ file: pricing, line: line('price_bug') }], waitForStop: true });
      expect(launch.structured.stop?.frame).toMatchObject({ name: 'priceOf', line: line('price_bug') });

      editFile(pricing, 'return unit; // BP:price_bug', 'return unit * qty; // BP:price_bug');
      const applied = await client.call<Applied>('session_apply_changes', {});
      expect(applied.isError, applied.text).toBe(false);
      expect(applied.structured.changes).toEqual([{ file: pricing, status: 'applied', items: ['priceOf (function body)'] }]);
      expect(applied.structured.notes.join('\n')).toMatch(/^Restarted frame #0 priceOf \(pricing\.js:\d+\)/);
      expect(applied.structured.stop).toMatchObject({ reason: 'restart frame', frame: { name: 'priceOf', line: line('unit') } });
      expect(applied.text).toContain('pricing.js: applied — priceOf (function body)');
      expect(applied.text).toMatch(/return unit \* qty;/);

      await client.call('breakpoint_remove', { all: true });
      const end = await client.call<Wait>('execution_continue', {});
      expect(end.structured.status).toBe('exited');
      expect(end.structured.outputTail).toContain('#1 3 x pen = 6\n#2 3 x ink = 12\n#3 3 x pad = 3');

      const over = await client.call('session_apply_changes', {});
      expect(over.isError).toBe(true);
      expect(over.text).toMatch(/^INVALID_STATE: Cannot apply changes: session node-\d+ is exited\.\nNext: The program is not running: session_restart runs it again\.$/);
    });

    it('stops at a breakpoint on a line the edit added, and steps on the new lines', async () => {
      const { server, pricing, line } = shop();
      const handle = markerLine(server, 'BP:handle');
      await client.call('session_launch', { program: server, args: ['3'], breakpoints: [{ file: server, line: handle }], waitForStop: true });

      editFile(pricing, '  return unit; // BP:price_bug (the quantity is forgotten)', '  const total = unit * qty; // BP:new_line\n  return total;');
      const applied = await client.call<Applied>('session_apply_changes', { files: [pricing] });
      expect(applied.structured.changes[0]).toMatchObject({ status: 'applied', items: ['priceOf (function body)'] });
      expect(applied.structured.notes).toEqual([]);
      expect(applied.structured.stop?.frame).toMatchObject({ name: 'handle', line: handle });

      const set = await client.call<{ breakpoint: { status: string; actualLine?: number } }>('breakpoint_set', { file: pricing, line: line('new_line') });
      expect(set.structured.breakpoint).toMatchObject({ status: 'verified', actualLine: line('new_line') });
      const hit = await client.call<Wait>('execution_continue', {});
      expect(hit.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'priceOf', file: pricing, line: line('new_line') } });
      expect(hit.text).toContain('const total = unit * qty; // BP:new_line');
      const stepped = await client.call<Wait>('execution_step', { kind: 'over' });
      expect(stepped.structured.stop?.frame).toMatchObject({ name: 'priceOf', file: pricing, line: line('new_line') + 1 });
      expect(stepped.text).toContain('return total;');
    });
  });

  describe('a running server (requests answered in a loop)', () => {
    it('fixes the handler while it serves: the next request gets the new answer', async () => {
      const { server, pricing } = shop();
      const { structured } = await client.call<Wait>('session_launch', { program: server, args: ['200'] });
      const before = await outputMatching(client, structured.sessionId, /#2 3 x ink = 4\n/);

      editFile(pricing, 'return unit; // BP:price_bug', 'return unit * qty; // BP:price_bug');
      const applied = await client.call<Applied>('session_apply_changes', {});
      expect(applied.structured).toMatchObject({ state: 'running', changes: [{ status: 'applied', items: ['priceOf (function body)'] }] });
      expect(applied.text).toContain('Next: the next call into the edited code runs it');

      const after = await outputMatching(client, structured.sessionId, /#\d+ 3 x ink = 12\n/, before.cursor);
      expect(after.text).not.toMatch(/#\d+ 3 x ink = 4\n[^]*#\d+ 3 x ink = 12/);
    });

    it('refuses what V8 cannot change, naming why, and the program serves on as before', async () => {
      const { server, pricing } = shop();
      const { structured } = await client.call<Wait>('session_launch', { program: server, args: ['200'] });
      await outputMatching(client, structured.sessionId, /#2 /);

      // serve() is suspended at its await for the next request, or (under load) running at that
      // moment: either way V8 will not replace it, and says which.
      editFile(server, 'console.log(await handle(request)); // BP:serve', 'console.log(`served ${await handle(request)}`); // BP:serve');
      editFile(pricing, 'return unit; // BP:price_bug', 'return unit * qty; // BP:price_bug');
      const refused = await client.call<Applied>('session_apply_changes', {});
      expect(refused.isError, refused.text).toBe(false);
      const byFile = Object.fromEntries(refused.structured.changes.map((c) => [c.file, c]));
      expect(byFile[server]).toMatchObject({ status: 'refused', items: ['serve (function body)'], reason: expect.stringMatching(/^V8 refused \(BlockedByActive(Generator|Function)\)/) });
      expect(byFile[pricing]).toMatchObject({ status: 'refused', reason: expect.stringMatching(/^not applied: the edit of server\.js was refused/) });
      expect(refused.text).toMatch(/Next: call session_apply_changes again once that call has finished/);

      const later = await outputMatching(client, structured.sessionId, /#\d+ 3 x pad = 1\n#\d+ 3 x pen = 2\n/, (await client.call<{ cursor: number }>('session_output', { sessionId: structured.sessionId })).structured.cursor);
      expect(later.text).not.toContain('served');

      editFile(server, 'console.log(`served ${await handle(request)}`); // BP:serve', 'console.log(await handle(request)); // BP:serve');
      editFile(pricing, 'return unit * qty; // BP:price_bug', 'return unit * ; // BP:price_bug');
      const syntax = await client.call<Applied>('session_apply_changes', { files: [pricing] });
      expect(syntax.structured.changes[0]).toMatchObject({ status: 'refused', reason: expect.stringMatching(/^SyntaxError: Unexpected token ';' \(line 6, column \d+\)$/) });
    });

    it('answers a file the program never loaded with INVALID_ARGUMENT', async () => {
      const { server } = shop();
      await client.call('session_launch', { program: server, args: ['200'] });
      const other = join(FIXTURES, 'loop.js');
      const r = await client.call('session_apply_changes', { files: [other] });
      expect(r.isError).toBe(true);
      expect(r.text).toMatch(/^INVALID_ARGUMENT: The program has not loaded .*loop\.js, so there is nothing of it to change\.\nNext: /);
    });
  });

  describe('a server the debugger attached to', () => {
    it('changes a script the program loaded before the attach: the next request gets the new answer', async () => {
      const { server, pricing } = shop();
      const program = await startForAttach(process.execPath, (port) => [`--inspect=127.0.0.1:${port}`, server, '300']);
      try {
        await program.printed(/#2 3 x ink = 4\n/);
        await attachWhenListening(client, 'node', program.port);

        editFile(pricing, 'return unit; // BP:price_bug', 'return unit * qty; // BP:price_bug');
        const applied = await client.call<Applied>('session_apply_changes', {});
        expect(applied.structured).toMatchObject({ state: 'running', changes: [{ file: pricing, status: 'applied', items: ['priceOf (function body)'] }] });
        await program.printed(/#\d+ 3 x ink = 12\n/, program.printedSoFar);
      } finally {
        program.kill();
      }
    });
  });

  describe('TypeScript', () => {
    /** The TypeScript fixture with its tsc output, its packages linked. */
    function typescriptApp() {
      const dir = copyFixture(join(FIXTURES, 'ts'), ['src', 'out', 'tsconfig.json', 'package.json'], ['node_modules']);
      const cart = join(dir, 'src/cart.ts');
      return { dir, cart, line: (marker: string) => markerLine(cart, `BP:${marker}`) };
    }

    it.runIf(tsx)('compiles the edited file again with the project\'s TypeScript (tsc output): the stop and a new breakpoint follow the new lines', async () => {
      const { dir, cart, line } = typescriptApp();
      await client.call('session_launch', { program: join(dir, 'out/main.js'), breakpoints: [{ file: cart, line: line('cart_line') }], waitForStop: true });

      editFile(cart, '  total(discount?: Discount): number {\n', '  /** The lines summed, each ten times. */\n  total(discount?: Discount): number {\n    const factor: number = 10; // BP:factor\n');
      editFile(cart, 'sum += item.price * item.qty; // BP:cart_line', 'sum += item.price * item.qty * factor; // BP:cart_line');
      const applied = await client.call<Applied>('session_apply_changes', {});
      expect(applied.structured.changes).toEqual([{ file: cart, status: 'applied', items: ['Cart.total (function body)'] }]);
      expect(applied.structured.stop).toMatchObject({ reason: 'restart frame', frame: { name: 'total', file: cart, line: line('factor') } });

      const set = await client.call<{ breakpoint: { status: string; actualLine?: number } }>('breakpoint_set', { file: cart, line: line('cart_sum') });
      expect(set.structured.breakpoint).toMatchObject({ status: 'verified', actualLine: line('cart_sum') });
      const hit = await client.call<Wait>('execution_continue', {});
      expect(hit.structured.stop?.frame).toMatchObject({ name: 'total', file: cart, line: line('cart_sum') });
      await client.call('breakpoint_remove', { all: true });
      const end = await client.call<Wait>('execution_continue', {});
      expect(end.structured.outputTail).toContain('grand 268, late 536');
    });

    it.runIf(tsx).each([
      { runner: 'tsx', launch: {}, says: 'Runs with tsx' },
      { runner: 'ts-node', launch: { options: { tsRunner: 'ts-node' }, env: { TS_NODE_TRANSPILE_ONLY: 'true' } }, says: 'Runs with ts-node' },
    ])('compiles the edited file again as $runner compiles it, the program run through it: the next call runs the fix', async ({ launch, says }) => {
      const { dir, cart, line } = typescriptApp();
      const launched = await client.call<Wait>('session_launch', { program: join(dir, 'src/main.ts'), breakpoints: [{ file: cart, line: line('cart_line') }], waitForStop: true, ...launch });
      expect(launched.text).toContain(says);

      editFile(cart, 'sum += item.price * item.qty; // BP:cart_line', 'sum += item.price * item.qty * 10; // BP:cart_line');
      const applied = await client.call<Applied>('session_apply_changes', {});
      expect(applied.structured.changes).toEqual([{ file: cart, status: 'applied', items: ['Cart.total (function body)'] }]);
      expect(applied.structured.stop).toMatchObject({ reason: 'restart frame', frame: { name: 'total', file: cart, line: line('cart_sum') } });
      // The sum of every order, read before main's dynamic import (which ts-node does not resolve here).
      const main = join(dir, 'src/main.ts');
      await client.call('breakpoint_remove', { all: true });
      await client.call('breakpoint_set', { file: main, line: markerLine(main, 'BP:main_call') + 2 });
      const summed = await client.call<Wait>('execution_continue', {});
      expect(summed.structured.stop?.frame, summed.text).toMatchObject({ name: 'main', file: main });
      const grand = await client.call<{ value: string }>('inspect_evaluate', { expression: 'grand' });
      expect(grand.structured.value).toBe('268');
    });
  });

  describe('code on one long line', () => {
    it('refuses an edit V8 would take without changing any function (a changed line of 800 characters or more), and the program runs as before', async () => {
      const { server, pricing } = shop();
      // The pricing module as a minifier writes it: one line, long with its price table.
      const table = Object.fromEntries(Array.from({ length: 120 }, (_, i) => [`sku${i}`, i]));
      writeFileSync(pricing, `const PRICES={pen:2,ink:4,pad:1,...${JSON.stringify(table)}};function priceOf(sku,qty){const unit=PRICES[sku]??0;return unit}module.exports={priceOf};\n`);
      const { structured } = await client.call<Wait>('session_launch', { program: server, args: ['200'] });
      await outputMatching(client, structured.sessionId, /#2 3 x ink = 4\n/);

      editFile(pricing, 'return unit}', 'return unit*qty}');
      const refused = await client.call<Applied>('session_apply_changes', {});
      expect(refused.structured.changes).toEqual([
        {
          file: pricing,
          status: 'refused',
          items: ['priceOf (function body)'],
          reason: expect.stringMatching(/^V8 would accept this edit and leave every function that exists on its old code: .* under 800 characters, and line 1 of pricing\.js has \d+$/),
          nextStep: 'session_restart runs the program with the edited file',
        },
      ]);
      const cursor = (await client.call<{ cursor: number }>('session_output', { sessionId: structured.sessionId })).structured.cursor;
      await outputMatching(client, structured.sessionId, /x ink = 4\n/, cursor);
    });
  });
});
