/**
 * Function breakpoints by name and exception stops under the Node engine, against real node:
 * declared functions, class methods, functions in modules that load later, in TypeScript and
 * JavaScript; the answer says where each one bound.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createRun, disposeAll, fixture, frameLines, launchConfig, lineOf } from './nodeHarness.js';

const ts = (name: string) => fixture(`ts/${name}`);
const compiledMain = ts('out/main.js');

describe('node engine: function breakpoints', () => {
  afterEach(disposeAll);

  it('breaks on the first statement of a declared function and says where it bound, in TypeScript', async () => {
    const { engine, recorder } = createRun();
    const result = await engine.launch(launchConfig(compiledMain, { functionBreakpoints: [{ id: 1, function: 'handleOrder' }] }));
    const line = lineOf(ts('src/orders.ts'), 'handle_first');
    // orders.js loads after main.js: the launch answer (at main.js) has not seen the function yet.
    expect(result.breakpoints).toEqual([{ id: 1, verified: false, message: expect.stringContaining('binds when a script that defines it loads') }]);
    const stop = await recorder.next('stopped', 1);
    expect(stop).toMatchObject({ reason: 'function breakpoint', hitBreakpointIds: [1] });
    expect(await frameLines(engine, 1, 1)).toEqual([`handleOrder ts/src/orders.ts:${line}`]);
    expect(recorder.of('breakpoint').map((e) => e.binding)).toContainEqual(expect.objectContaining({ id: 1, verified: true, file: ts('src/orders.ts'), line }));
  });

  for (const name of ['Cart.total', 'Cart.prototype.total']) {
    it(`breaks in a class method named ${name}`, async () => {
      const { engine, recorder } = createRun();
      await engine.launch(launchConfig(compiledMain, { breakpoints: [], functionBreakpoints: [{ id: 1, function: name }] }));
      await recorder.next('stopped', 1);
      expect(await frameLines(engine, 1, 1)).toEqual([`total ts/src/cart.ts:${lineOf(ts('src/cart.ts'), 'cart_sum')}`]);
    });
  }

  it('binds, when set on a running program, in the scripts already loaded, and answers where', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(compiledMain, { breakpoints: [{ id: 1, file: ts('src/main.ts'), line: lineOf(ts('src/main.ts'), 'main_call') }] }));
    await recorder.next('stopped', 1);
    const [binding] = await engine.setFunctionBreakpoints([{ id: 2, function: 'Cart.prototype.add' }]);
    expect(binding).toMatchObject({ id: 2, verified: true, file: ts('src/cart.ts'), line: lineOf(ts('src/cart.ts'), 'cart_sum') - 5 });
    const [missing] = await engine.setFunctionBreakpoints([{ id: 3, function: 'noSuchFunction' }]);
    expect(missing).toMatchObject({ id: 3, verified: false, message: expect.stringContaining('no function named noSuchFunction') });
  });

  it('binds in a CommonJS module loaded later, before it runs', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(compiledMain, { functionBreakpoints: [{ id: 1, function: 'lateWork' }] }));
    const stop = await recorder.next('stopped', 1);
    expect(stop.reason).toBe('function breakpoint');
    expect(await frameLines(engine, 1, 1)).toEqual([`lateWork ts/src/late.ts:${lineOf(ts('src/late.ts'), 'late_first')}`]);
    expect((await engine.evaluate('seed', undefined, 'repl')).value).toBe('25');
  });

  it('binds in an ES module loaded later by a dynamic import()', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(fixture('esm/main.js'), { functionBreakpoints: [{ id: 1, function: 'shout' }] }));
    await recorder.next('stopped', 1);
    expect(await frameLines(engine, 1, 1)).toEqual([`shout esm/lazy.js:${lineOf(fixture('esm/lazy.js'), 'shout')}`]);
  });
});

describe('node engine: exceptions', () => {
  afterEach(disposeAll);

  it('reports the class, message and TypeScript throw location, and gives the thrown value as $exception', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(ts('out/refund.js')));
    const stop = await recorder.next('stopped', 1);
    const line = lineOf(ts('src/refund.ts'), 'refund_throw');
    expect(stop.exception).toMatchObject({ type: 'RangeError', message: 'refund for order 9 must be positive', kind: 'uncaught', thrownAt: { file: ts('src/refund.ts'), line } });
    expect((await engine.evaluate('$exception.message', undefined, 'repl')).value).toBe('"refund for order 9 must be positive"');
    expect((await engine.evaluate('$exception instanceof RangeError && refund.amount', undefined, 'repl')).value).toBe('-5');
    expect((await engine.evaluate('typeof globalThis[Symbol.for("debugbridge.exception")]', undefined, 'repl')).value).toBe('"undefined"');
  });

  it('says $exception is undefined away from an exception', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(compiledMain, { functionBreakpoints: [{ id: 1, function: 'handleOrder' }] }));
    await recorder.next('stopped', 1);
    await expect(engine.evaluate('$exception', undefined, 'repl')).rejects.toMatchObject({ code: 'EVALUATION_FAILED', message: expect.stringContaining('only defined while the program is stopped on an exception') });
  });
});
