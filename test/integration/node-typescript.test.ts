/**
 * TypeScript under the Node engine, against real node: compiled by tsc with source maps in .map
 * files and inline, run through tsx (CommonJS and ES modules) and ts-node, and a program whose
 * map points at sources that are gone. Breakpoints are set, hit and told on TypeScript lines.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { requireRuntime } from '../support/runtimes.js';
import { breakpointAt, createRun, disposeAll, fixture, frameLines, launchConfig, lineOf } from './nodeHarness.js';

const ts = (name: string) => fixture(`ts/${name}`);
const orders = ts('src/orders.ts');
const cart = ts('src/cart.ts');
const runners = requireRuntime('tsx and ts-node (npm ci --prefix test/fixtures/node/ts)', existsSync(ts('node_modules/tsx/package.json')) && existsSync(ts('node_modules/ts-node/package.json')));

describe('node engine: TypeScript compiled by tsc', () => {
  afterEach(disposeAll);

  for (const [how, out] of [
    ['maps in .map files', 'out'],
    ['inline maps', 'out-inline'],
  ] as const) {
    it(`stops on a TypeScript line through ${how}, with TypeScript frames, and steps on TypeScript lines`, async () => {
      const { engine, recorder } = createRun();
      const total = breakpointAt(orders, 'handle_total');
      await engine.launch(launchConfig(ts(`${out}/main.js`), { breakpoints: [total] }));
      const stop = await recorder.next('stopped', 1);
      expect(stop).toMatchObject({ reason: 'breakpoint', hitBreakpointIds: [total.id] });
      expect(await frameLines(engine, 1, 2)).toEqual([`handleOrder ts/src/orders.ts:${total.line}`, `main ts/src/main.ts:${lineOf(ts('src/main.ts'), 'main_call')}`]);
      expect(recorder.of('breakpoint').at(-1)?.binding).toMatchObject({ id: total.id, verified: true, file: orders, line: total.line });

      await engine.step(1, 'into');
      await recorder.next('stopped', 2);
      expect((await frameLines(engine, 1, 1))[0]).toBe(`total ts/src/cart.ts:${lineOf(cart, 'cart_sum')}`);
      await engine.step(1, 'over');
      await recorder.next('stopped', 3);
      expect((await frameLines(engine, 1, 1))[0]).toBe(`total ts/src/cart.ts:${lineOf(cart, 'cart_sum') + 1}`);
      await engine.step(1, 'out');
      await recorder.next('stopped', 4);
      expect((await frameLines(engine, 1, 1))[0]).toMatch(/^handleOrder ts\/src\/orders\.ts:/);
    });
  }

  it('moves a breakpoint on a TypeScript comment line to the next line with code and says so in TypeScript lines', async () => {
    const { engine, recorder } = createRun();
    const comment = breakpointAt(orders, 'handle_comment');
    await engine.launch(launchConfig(ts('out/main.js'), { breakpoints: [comment] }));
    await recorder.next('stopped', 1);
    const [binding] = await engine.setBreakpoints(orders, [comment]);
    expect(binding).toMatchObject({ verified: true, file: orders, line: lineOf(orders, 'handle_total'), message: expect.stringMatching(/^moved from line \d+/) });
  });

  it('binds a breakpoint set while running in a file that is already loaded', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(ts('out/main.js'), { breakpoints: [breakpointAt(orders, 'handle_first')] }));
    await recorder.next('stopped', 1);
    const line = breakpointAt(cart, 'cart_line');
    const [binding] = await engine.setBreakpoints(cart, [line]);
    expect(binding).toMatchObject({ verified: true, file: cart, line: line.line });
    await engine.continue(1);
    expect(await recorder.next('stopped', 2)).toMatchObject({ hitBreakpointIds: [line.id] });
    expect((await engine.evaluate('item.sku', undefined, 'repl')).value).toBe('"pen"');
  });

  it('debugs in the JavaScript when the map points at sources that are gone', async () => {
    const { engine, recorder } = createRun();
    const bundle = fixture('bundle/app.bundle.js');
    const sum = breakpointAt(bundle, 'bundle_sum');
    const result = await engine.launch(launchConfig(bundle, { breakpoints: [sum] }));
    expect(result.breakpoints[0]).toMatchObject({ verified: true, file: bundle, line: sum.line });
    await recorder.next('stopped', 1);
    expect(await frameLines(engine, 1, 2)).toEqual([`average bundle/app.bundle.js:${sum.line}`, expect.stringMatching(/^<anonymous> bundle\/app\.bundle\.js:\d+$/)]);
    await engine.step(1, 'over');
    await recorder.next('stopped', 2);
    expect((await frameLines(engine, 1, 1))[0]).toMatch(/^average bundle\/app\.bundle\.js:\d+$/);
  });

  it('runs the compiled JavaScript of a .ts program when nothing else runs TypeScript, and says so', async () => {
    const { engine, recorder } = createRun();
    const first = breakpointAt(orders, 'handle_first');
    const result = await engine.launch(launchConfig(ts('src/main.ts'), { breakpoints: [first], options: { tsRunner: 'compiled' } }));
    expect(result.note).toBe(`Runs the compiled ${ts('out/main.js')}; its source map leads back to ${ts('src/main.ts')}.`);
    await recorder.next('stopped', 1);
    expect((await frameLines(engine, 1, 1))[0]).toBe(`handleOrder ts/src/orders.ts:${first.line}`);
  });

  it('says exactly what to install when nothing can run a .ts program', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-lone-ts-'));
    const lone = join(dir, 'lone.ts');
    writeFileSync(lone, 'const n: number = 1;\nconsole.log(n);\n');
    const { engine } = createRun();
    const error = await engine.launch(launchConfig(lone)).catch((e: unknown) => e);
    expect(error).toMatchObject({ code: 'ENGINE_UNAVAILABLE', message: expect.stringContaining('tsx is not installed where it can load it') });
    expect((error as { hint: string }).hint).toContain(`npm install --save-dev tsx\` in ${dir}`);
  });
});

describe.skipIf(!runners)('node engine: TypeScript through tsx and ts-node', () => {
  afterEach(disposeAll);

  it('runs a .ts program through tsx, says so, and stops on TypeScript lines in CommonJS modules', async () => {
    const { engine, recorder } = createRun();
    const line = breakpointAt(cart, 'cart_line');
    const result = await engine.launch(launchConfig(ts('src/main.ts'), { breakpoints: [line] }));
    expect(result.note).toMatch(/^Runs with tsx \d+\.\d+\.\d+ \(node --import tsx\), from .*node_modules\/tsx; its JavaScript kept on separate lines for live edit\.$/);
    await recorder.next('stopped', 1);
    expect(await frameLines(engine, 1, 2)).toEqual([`total ts/src/cart.ts:${line.line}`, `handleOrder ts/src/orders.ts:${lineOf(orders, 'handle_total')}`]);
    expect((await engine.evaluate('item.price * item.qty', undefined, 'repl')).value).toBe('6');
    expect(recorder.of('thread')).toEqual([]); // node's module loader worker is not one of the program's threads
  });

  it('stops through tsx in an ES module loaded by a dynamic import()', async () => {
    const { engine, recorder } = createRun();
    const loud = ts('esm/loud.mts');
    const line = breakpointAt(loud, 'loud');
    await engine.launch(launchConfig(ts('esm/app.mts'), { breakpoints: [line] }));
    await recorder.next('stopped', 1);
    expect(await frameLines(engine, 1, 2)).toEqual([`loud ts/esm/loud.mts:${line.line}`, expect.stringMatching(/^<anonymous> ts\/esm\/app\.mts:7$/)]);
    expect((await engine.evaluate('text', undefined, 'repl')).value).toBe('"hello"');
  });

  it('runs a .ts program through ts-node when asked', async () => {
    const { engine, recorder } = createRun();
    const first = breakpointAt(orders, 'handle_first');
    const result = await engine.launch(launchConfig(ts('src/main.ts'), { breakpoints: [first], options: { tsRunner: 'ts-node' }, env: { TS_NODE_TRANSPILE_ONLY: 'true' } }));
    expect(result.note).toMatch(/^Runs with ts-node 10\.9\.2 \(node --require ts-node\/register\)/);
    await recorder.next('stopped', 1, 30_000);
    expect((await frameLines(engine, 1, 1))[0]).toBe(`handleOrder ts/src/orders.ts:${first.line}`);
  }, 60_000);
});
