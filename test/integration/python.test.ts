/** The Python engine against real debugpy: launch, stops, inspection, stepping, exit. */
import { afterEach, describe, expect, it } from 'vitest';
import { DebugError } from '../../src/core/errors.js';
import { requireRuntime } from '../support/runtimes.js';
import { breakpointAt, createRun, disposeAll, fixture, launchConfig, lineOf, pythonAvailable } from './pythonHarness.js';

const available = requireRuntime('python with debugpy', await pythonAvailable());
const orders = fixture('orders.py');

describe.skipIf(!available)('python engine: workflow', () => {
  afterEach(disposeAll);

  it('launches, stops at a breakpoint, inspects, steps and runs to the exit code', async () => {
    const { engine, recorder } = createRun();
    const atCall = breakpointAt(orders, 'call');
    const atSubtotal = breakpointAt(orders, 'line_total');
    const result = await engine.launch(launchConfig(orders, { breakpoints: [atCall, atSubtotal] }));
    expect(result.breakpoints.map((b) => [b.id, b.verified, b.line])).toEqual([
      [atCall.id, true, atCall.line],
      [atSubtotal.id, true, atSubtotal.line],
    ]);
    expect(result.pid).toBeGreaterThan(0);

    const first = await recorder.next('stopped', 1);
    expect(first.reason).toBe('breakpoint');
    expect(first.hitBreakpointIds).toEqual([atCall.id]);

    const { frames } = await engine.stackTrace(first.threadId, 0, 20);
    expect(frames[0]).toMatchObject({ name: 'main', file: orders, line: atCall.line });

    const scopes = await engine.scopes(frames[0].id);
    expect(scopes[0].name).toBe('Locals');
    const locals = await engine.variables(scopes[0].ref);
    expect(locals.find((v) => v.name === 'discount')).toMatchObject({ value: '5.0', type: 'float' });
    const items = locals.find((v) => v.name === 'items')!;
    expect(items.ref).toBeGreaterThan(0);
    const page = await engine.variables(items.ref, 1, 1);
    expect(page).toHaveLength(1);
    expect(page[0].value).toContain('book');

    expect(await engine.evaluate('len(items) * discount', frames[0].id, 'repl')).toMatchObject({ value: '15.0', type: 'float' });

    await engine.step(first.threadId, 'over'); // onto the comment-free print line
    const afterOver = await recorder.next('stopped', 2);
    expect(afterOver.reason).toBe('breakpoint'); // the call hits line_total's breakpoint first
    expect(afterOver.hitBreakpointIds).toEqual([atSubtotal.id]);

    await engine.step(afterOver.threadId, 'out');
    const afterOut = await recorder.next('stopped', 3);
    expect(afterOut.reason).toBe('step');
    const outTop = (await engine.stackTrace(afterOut.threadId, 0, 1)).frames[0];
    expect(outTop.name).toBe('compute_total');

    await engine.step(afterOut.threadId, 'over');
    await recorder.next('stopped', 4);
    await engine.step(afterOut.threadId, 'over'); // back to the loop head
    await recorder.next('stopped', 5);
    await engine.step(afterOut.threadId, 'over'); // the call line again
    await recorder.next('stopped', 6);
    await engine.step(afterOut.threadId, 'into');
    const afterInto = await recorder.next('stopped', 7);
    const intoTop = (await engine.stackTrace(afterInto.threadId, 0, 1)).frames[0];
    expect(intoTop).toMatchObject({ name: 'line_total', line: lineOf(orders, 'line_total') });

    await engine.setBreakpoints(orders, [atCall]); // drop the one in line_total
    await engine.continue(afterInto.threadId);
    const exited = await recorder.next('exited', 1);
    expect(exited.exitCode).toBe(0);
    await recorder.next('terminated', 1);
    expect(recorder.output('stdout')).toContain('total=77.0');
  });

  it('reports output on both streams and the exit code', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(fixture('exit_code.py'), { args: ['7'] }));
    expect((await recorder.next('exited', 1)).exitCode).toBe(7);
    await recorder.next('terminated', 1);
    expect(recorder.output('stdout')).toContain('to stdout');
    expect(recorder.output('stderr')).toContain('to stderr');
    expect(recorder.of('process')[0].pid).toBeGreaterThan(0);
  });

  it('stops on entry when asked', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(orders, { stopOnEntry: true }));
    const stop = await recorder.next('stopped', 1);
    expect(stop.reason).toBe('entry');
    await engine.continue(stop.threadId);
    expect((await recorder.next('exited', 1)).exitCode).toBe(0);
  });

  it('throws EVALUATION_FAILED with Python\'s own message for a bad expression', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(orders, { breakpoints: [breakpointAt(orders, 'call')] }));
    const stop = await recorder.next('stopped', 1);
    const [top] = (await engine.stackTrace(stop.threadId, 0, 1)).frames;
    const error = await engine.evaluate('nope + 1', top.id, 'repl').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DebugError);
    expect(error).toMatchObject({ code: 'EVALUATION_FAILED', message: "NameError: name 'nope' is not defined" });
    expect((error as DebugError).hint).toBeTruthy();
    const syntax = await engine.evaluate('items[', top.id, 'watch').catch((e: unknown) => e);
    expect(syntax).toMatchObject({ code: 'EVALUATION_FAILED' });
    expect((syntax as DebugError).message).toMatch(/SyntaxError/);
  });

  it('changes what the program computes through setVariable', async () => {
    const { engine, recorder } = createRun();
    await engine.launch(launchConfig(orders, { breakpoints: [breakpointAt(orders, 'call')] }));
    const stop = await recorder.next('stopped', 1);
    const [top] = (await engine.stackTrace(stop.threadId, 0, 1)).frames;
    const [locals] = await engine.scopes(top.id);
    expect(await engine.setVariable(locals.ref, 'discount', '81.0 - 1')).toMatchObject({ value: '80.0' });
    await engine.continue(stop.threadId);
    expect((await recorder.next('exited', 1)).exitCode).toBe(0);
    expect(recorder.output('stdout')).toContain('total=2.0');
  });

  it('says where a breakpoint on a comment line went', async () => {
    const { engine, recorder } = createRun();
    const onComment = breakpointAt(orders, 'comment');
    const [binding] = (await engine.launch(launchConfig(orders, { breakpoints: [onComment] }))).breakpoints;
    expect(binding.id).toBe(onComment.id);
    if (binding.verified) {
      expect(binding.line).not.toBe(onComment.line);
      const stop = await recorder.next('stopped', 1);
      expect(stop.hitBreakpointIds).toEqual([onComment.id]);
    } else {
      expect(binding.message).toBeTruthy();
    }
  });

  it('rejects a missing program and unknown exception filters with stable codes', async () => {
    const { engine } = createRun();
    await expect(engine.launch(launchConfig(fixture('nope.py')))).rejects.toMatchObject({ code: 'PROGRAM_NOT_FOUND' });
    const second = createRun().engine;
    await expect(second.launch(launchConfig(orders, { exceptions: { filters: ['sometimes'] } }))).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
