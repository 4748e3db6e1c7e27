/** The Node.js engine against real node: launch, stops, inspection, stepping, breakpoints, exit. */
import { afterEach, describe, expect, it } from 'vitest';
import { DebugError } from '../../src/core/errors.js';
import { breakpointAt, createRun, disposeAll, fixture, lateWaitSnapshot, launchConfig, lineOf, topLocals } from './nodeHarness.js';

const workflow = fixture('workflow.js');
const loop = fixture('loop.js');

describe('node engine: workflow', () => {
  afterEach(disposeAll);

  it('stops at a breakpoint with locals and stack, evaluates, steps over/into/out and runs to the next hit', async () => {
    const { engine, recorder } = createRun();
    const accumulate = breakpointAt(workflow, 'accumulate');
    const result = await engine.launch(launchConfig(workflow, { breakpoints: [accumulate] }));
    expect(result.breakpoints).toEqual([expect.objectContaining({ id: accumulate.id, verified: true, line: accumulate.line, file: workflow })]);
    expect(result.pid).toBeGreaterThan(0);

    const first = await recorder.next('stopped', 1);
    expect(first).toMatchObject({ reason: 'breakpoint', threadId: 1, hitBreakpointIds: [accumulate.id] });
    const { frames, totalFrames } = await engine.stackTrace(1, 0, 20);
    expect(frames.slice(0, 3).map((f) => [f.name, f.line])).toEqual([
      ['computeTotal', accumulate.line],
      ['main', lineOf(workflow, 'call')],
      ['<anonymous>', expect.any(Number)],
    ]);
    expect(frames[0]).toMatchObject({ file: workflow, column: expect.any(Number) });
    expect(totalFrames).toBeGreaterThan(3);

    const scopes = await engine.scopes(frames[0].id);
    expect(scopes[0]).toMatchObject({ name: 'Local', expensive: false });
    expect(scopes.at(-1)).toMatchObject({ name: 'Global', expensive: true });
    const locals = await topLocals(engine);
    expect(locals.get('total')).toMatchObject({ value: '0', type: 'number' });
    expect(locals.get('item')).toMatchObject({ value: '{price: 2, qty: 3}', type: 'Object' });
    expect(locals.get('order')!.ref).toBeGreaterThan(0);

    const order = await engine.variables(locals.get('order')!.ref);
    const items = order.find((v) => v.name === 'items')!;
    expect(items).toMatchObject({ type: 'Array', indexedVariables: 2 });
    const second = await engine.variables(items.ref, 1, 1);
    expect(second).toEqual([expect.objectContaining({ name: '1', value: '{price: 4, qty: 5}' })]);
    const tags = order.find((v) => v.name === 'tags')!;
    expect(tags.value).toBe("Map(1) {\"rush\" => true}");
    expect((await engine.variables(tags.ref)).map((v) => v.name)).toContain('[[Entries]]');

    expect(await engine.evaluate('item.price * item.qty + 1', frames[0].id, 'repl')).toMatchObject({ value: '7', type: 'number', ref: 0 });
    expect(await engine.evaluate('order.id', frames[1].id, 'repl')).toMatchObject({ value: '7' });

    await engine.step(1, 'into');
    const into = await recorder.next('stopped', 2);
    expect(into.reason).toBe('step');
    expect((await engine.stackTrace(1, 0, 1)).frames[0]).toMatchObject({ name: 'lineTotal', line: lineOf(workflow, 'line_total') });

    await engine.step(1, 'over');
    await recorder.next('stopped', 3);
    expect((await engine.stackTrace(1, 0, 1)).frames[0].line).toBe(lineOf(workflow, 'line_total') + 1);
    expect((await topLocals(engine)).get('subtotal')?.value).toBe('6');

    await engine.step(1, 'out');
    const out = await recorder.next('stopped', 4);
    expect(out.reason).toBe('step');
    expect((await engine.stackTrace(1, 0, 1)).frames[0].name).toBe('computeTotal');

    await engine.continue(1);
    const next = await recorder.next('stopped', 5);
    expect(next).toMatchObject({ reason: 'breakpoint', hitBreakpointIds: [accumulate.id] });
    expect((await topLocals(engine)).get('total')?.value).toBe('6');
    expect(recorder.of('continued').length).toBeGreaterThanOrEqual(4);
  });

  it('reports the output and the exit code, with the inspector lines filtered out', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(workflow));
    const exited = await recorder.next('exited', 1);
    expect(exited.exitCode).toBe(3);
    await recorder.next('terminated', 1);
    expect(recorder.output('stdout')).toBe('grand total 26\n');
    expect(recorder.output('stderr')).toBe('done\n');
    expect(recorder.of('stopped')).toEqual([]);
  });

  it('stops on entry when asked', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(loop, { stopOnEntry: true }));
    const stop = await recorder.next('stopped', 1);
    expect(stop.reason).toBe('entry');
    expect((await engine.stackTrace(1, 0, 1)).frames[0]).toMatchObject({ file: loop, line: 1 });
    await engine.continue(1);
    expect((await recorder.next('exited', 1)).exitCode).toBe(0);
  });

  it('stops on a breakpoint on the only line of a program that exits at once, 20 times out of 20', async () => {
    const program = fixture('only_line.js');
    let hits = 0;
    for (let i = 0; i < 20; i++) {
      const { engine, recorder } = createRun();
      const bp = { id: 1000 + i, file: program, line: 1 };
      await engine.launch(launchConfig(program, { breakpoints: [bp] }));
      const stop = await recorder.next('stopped', 1);
      if (stop.reason === 'breakpoint' && stop.hitBreakpointIds?.[0] === bp.id) hits++;
      await engine.dispose();
    }
    expect(hits).toBe(20);
  });
});

describe('node engine: breakpoints', () => {
  afterEach(disposeAll);

  it('lets the program run only once node waits for the debugger, however late that is', async () => {
    // A run request node reads before it waits is lost, and the program would wait forever.
    const blob = await lateWaitSnapshot();
    const { engine, recorder } = createRun();
    const body = breakpointAt(loop, 'body');
    const launched = engine.launch(launchConfig(loop, { breakpoints: [body], options: { runtimeArgs: ['--snapshot-blob', blob] } }));
    expect((await recorder.next('stopped', 1, 20_000)).hitBreakpointIds).toEqual([body.id]);
    expect((await launched).breakpoints).toEqual([expect.objectContaining({ id: body.id, verified: true })]);
  });

  it('honours a condition', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(loop, { breakpoints: [breakpointAt(loop, 'body', { condition: 'i === 7' })] }));
    await recorder.next('stopped', 1);
    expect((await topLocals(engine)).get('i')?.value).toBe('7');
  });

  it('honours a hit count: "4" stops on the fourth hit only, "% 3" on every third', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(loop, { breakpoints: [breakpointAt(loop, 'body', { hitCondition: '4' })] }));
    await recorder.next('stopped', 1);
    expect((await topLocals(engine)).get('i')?.value).toBe('3');
    await engine.continue(1);
    await recorder.next('exited', 1);
    expect(recorder.of('stopped')).toHaveLength(1);

    const every = createRun();
    await every.engine.launch(launchConfig(loop, { breakpoints: [breakpointAt(loop, 'body', { hitCondition: '% 3', condition: 'i > 0' })] }));
    const seen: string[] = [];
    for (let n = 1; n <= 3; n++) {
      await every.recorder.next('stopped', n);
      seen.push((await topLocals(every.engine)).get('i')!.value);
      await every.engine.continue(1);
    }
    expect(seen).toEqual(['3', '6', '9']);
  });

  it('rejects a hit condition it cannot read', async () => {
    const { engine } = createRun();
    await engine.launch(launchConfig(loop, { stopOnEntry: true }));
    await expect(engine.setBreakpoints(loop, [breakpointAt(loop, 'body', { hitCondition: 'often' })])).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('logs through a logpoint without stopping', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(loop, { breakpoints: [breakpointAt(loop, 'body', { logMessage: 'i is {i}, 100% {nope}' })] }));
    await recorder.next('exited', 1);
    expect(recorder.of('stopped')).toEqual([]);
    const out = recorder.output('stdout');
    expect(out).toContain('i is 0, 100% <ReferenceError: nope is not defined>\n');
    expect(out).toContain('i is 9,');
    expect(out).toContain('total=45');
  });

  it('moves a breakpoint on a comment line to the next statement and says so', async () => {
    const { engine, recorder } = createRun();
    const comment = breakpointAt(workflow, 'comment');
    const result = await engine.launch(launchConfig(workflow, { breakpoints: [comment] }));
    expect(result.breakpoints[0]).toMatchObject({ id: comment.id, verified: true, line: comment.line + 1 });
    expect(result.breakpoints[0].message).toMatch(/moved from line \d+ to the next statement/);
    const stop = await recorder.next('stopped', 1);
    expect(stop.hitBreakpointIds).toEqual([comment.id]);
  });

  it('replaces the breakpoints of a file while stopped', async () => {
    const { engine, recorder } = createRun();
    const body = breakpointAt(loop, 'body');
    await engine.launch(launchConfig(loop, { breakpoints: [body] }));
    await recorder.next('stopped', 1);
    const [again] = await engine.setBreakpoints(loop, [{ ...body, condition: 'i === 5' }]);
    expect(again).toMatchObject({ id: body.id, verified: true });
    await engine.continue(1);
    await recorder.next('stopped', 2);
    expect((await topLocals(engine)).get('i')?.value).toBe('5');
    await engine.setBreakpoints(loop, []);
    await engine.continue(1);
    expect((await recorder.next('exited', 1)).exitCode).toBe(0);
  });

  it('stops on an uncaught exception with its type and message, then reports the exit', async () => {
    const { engine, recorder } = createRun();
    const crash = fixture('crash.js');
    await engine.launch(launchConfig(crash));
    const stop = await recorder.next('stopped', 1);
    expect(stop.reason).toBe('exception');
    expect(stop.exception).toMatchObject({ type: 'TypeError', message: "Cannot read properties of undefined (reading 'port')", kind: 'uncaught' });
    expect((await engine.stackTrace(1, 0, 1)).frames[0].line).toBe(lineOf(crash, 'throw'));
    expect(await engine.exceptionInfo(1)).toMatchObject({ type: 'TypeError' });
    await engine.continue(1);
    expect((await recorder.next('exited', 1)).exitCode).toBe(1);
    expect(recorder.output('stdout')).toBe('about to fail\n');
    expect(recorder.output('stderr')).toContain('TypeError');
  });

});

describe('node engine: values', () => {
  afterEach(disposeAll);

  it('answers a bad expression with EVALUATION_FAILED and V8\'s message', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(loop, { breakpoints: [breakpointAt(loop, 'body')] }));
    await recorder.next('stopped', 1);
    const error = await engine.evaluate('nope + 1', undefined, 'repl').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DebugError);
    expect(error).toMatchObject({ code: 'EVALUATION_FAILED', message: 'ReferenceError: nope is not defined' });
    expect(await engine.evaluate('1 +* 2', undefined, 'repl').catch((e: DebugError) => e.message)).toMatch(/^SyntaxError/);
  });

  it('sets a variable and the program computes with it', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(loop, { breakpoints: [breakpointAt(loop, 'body', { condition: 'i === 9' })] }));
    await recorder.next('stopped', 1);
    const { frames } = await engine.stackTrace(1, 0, 1);
    const scopes = await engine.scopes(frames[0].id);
    expect(await engine.setVariable(scopes[0].ref, 'total', '1000')).toMatchObject({ value: '1000' });
    expect(await engine.setVariable(scopes[0].ref, 'i', '10 - 1')).toMatchObject({ value: '9' });
    expect((await topLocals(engine)).get('total')?.value).toBe('1000');
    await engine.continue(1);
    await recorder.next('exited', 1);
    expect(recorder.output('stdout')).toBe('total=1009\n');
  });

  it('sets an object property and pages a large array in an ES module', async () => {
    const { engine, recorder } = createRun();
    const values = fixture('values.mjs');
    await engine.launch(launchConfig(values, { breakpoints: [breakpointAt(values, 'values')] }));
    await recorder.next('stopped', 1);
    const locals = await topLocals(engine);
    const numbers = locals.get('numbers')!;
    expect(numbers).toMatchObject({ type: 'Array' });
    const page = await engine.variables(numbers.ref, 100, 3);
    expect(page.map((v) => [v.name, v.value])).toEqual([
      ['100', '200'],
      ['101', '202'],
      ['102', '204'],
    ]);
    const tail = await engine.variables(numbers.ref, 249, 5);
    expect(tail.map((v) => v.name)).toEqual(['249', 'length']);
    const nested = locals.get('nested')!;
    expect(nested.value).toBe('{name: "box", inner: {…}, list: Array(3)}');
    expect(await engine.setVariable(nested.ref, 'name', '"crate"')).toMatchObject({ value: '"crate"', type: 'string' });
    expect((await engine.evaluate('nested.name', undefined, 'repl')).value).toBe('"crate"');
    expect(locals.get('lookup')?.value).toBe('Map(2) {"a" => 1, "b" => 2}');
  });
});
