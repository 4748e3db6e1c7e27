/** Conditional, hit-count, log and function breakpoints, exception stops, short programs. */
import { afterEach, describe, expect, it } from 'vitest';
import { requireRuntime } from '../support/runtimes.js';
import { breakpointAt, createRun, disposeAll, fixture, launchConfig, lineOf, pythonAvailable } from './pythonHarness.js';

const available = requireRuntime('python with debugpy', await pythonAvailable());
const loop = fixture('loop.py');
const raises = fixture('raises.py');

async function localValue(run: ReturnType<typeof createRun>, threadId: number, name: string): Promise<string | undefined> {
  const [top] = (await run.engine.stackTrace(threadId, 0, 1)).frames;
  const [locals] = await run.engine.scopes(top.id);
  return (await run.engine.variables(locals.ref)).find((v) => v.name === name)?.value;
}

describe.skipIf(!available)('python engine: breakpoints and exceptions', () => {
  afterEach(disposeAll);

  it('stops only when the condition holds', async () => {
    const run = createRun();
    await run.engine.launch(launchConfig(loop, { breakpoints: [breakpointAt(loop, 'body', { condition: 'i == 7' })] }));
    const stop = await run.recorder.next('stopped', 1);
    expect(await localValue(run, stop.threadId, 'i')).toBe('7');
    await run.engine.continue(stop.threadId);
    await run.recorder.next('exited', 1);
    expect(run.recorder.of('stopped')).toHaveLength(1);
  });

  it('stops on the nth hit with a hit condition', async () => {
    const run = createRun();
    const spec = breakpointAt(loop, 'body', { hitCondition: '3' });
    await run.engine.launch(launchConfig(loop, { breakpoints: [spec] }));
    const stop = await run.recorder.next('stopped', 1);
    expect(stop.hitBreakpointIds).toEqual([spec.id]);
    expect(await localValue(run, stop.threadId, 'i')).toBe('2');
  });

  it('prints log messages without stopping', async () => {
    const run = createRun();
    await run.engine.launch(launchConfig(loop, { breakpoints: [breakpointAt(loop, 'body', { logMessage: 'i is {i}' })] }));
    await run.recorder.next('exited', 1);
    await run.recorder.next('terminated', 1);
    expect(run.recorder.of('stopped')).toHaveLength(0);
    const logged = run.recorder.events.flatMap((e) => (e.type === 'output' && e.text.includes('i is') ? [e] : []));
    expect(logged.map((e) => e.text.trim())).toEqual(Array.from({ length: 10 }, (_, i) => `i is ${i}`));
    expect(run.recorder.output('stdout')).toContain('sum=285');
  });

  it('stops at a function breakpoint with its session id', async () => {
    const run = createRun();
    const orders = fixture('orders.py');
    expect(run.engine.capabilities.functionBreakpoints).toBe(true);
    const result = await run.engine.launch(launchConfig(orders, { functionBreakpoints: [{ id: 9001, function: 'line_total' }] }));
    expect(result.breakpoints).toEqual([expect.objectContaining({ id: 9001, verified: true })]);
    const stop = await run.recorder.next('stopped', 1);
    expect(stop.hitBreakpointIds).toEqual([9001]);
    const [top] = (await run.engine.stackTrace(stop.threadId, 0, 1)).frames;
    expect(top.name).toBe('line_total');
  });

  it('stops on an uncaught exception with its type and message, and not on a caught one', async () => {
    const run = createRun();
    await run.engine.launch(launchConfig(raises));
    const stop = await run.recorder.next('stopped', 1);
    expect(stop.reason).toBe('exception');
    expect(stop.exception).toMatchObject({ type: 'KeyError', message: "'timeout'" });
    const [top] = (await run.engine.stackTrace(stop.threadId, 0, 1)).frames;
    expect(top.line).toBe(lineOf(raises, 'uncaught'));
    expect(await run.engine.exceptionInfo(stop.threadId)).toMatchObject({ type: 'KeyError' });
    await run.engine.continue(stop.threadId);
    expect((await run.recorder.next('exited', 1)).exitCode).toBe(1);
    expect(run.recorder.output('stderr')).toContain('KeyError');
  });

  it('maps the generic "all" filter to debugpy\'s raised exceptions', async () => {
    const run = createRun();
    await run.engine.launch(launchConfig(raises, { exceptions: { filters: ['all'] } }));
    const stop = await run.recorder.next('stopped', 1);
    expect(stop.exception).toMatchObject({ type: 'ValueError' });
    const [top] = (await run.engine.stackTrace(stop.threadId, 0, 1)).frames;
    expect(top.line).toBe(lineOf(raises, 'parse'));
  });

  it('runs with no exception stops when no filter is set', async () => {
    const run = createRun();
    await run.engine.launch(launchConfig(raises, { exceptions: { filters: [] } }));
    expect((await run.recorder.next('exited', 1)).exitCode).toBe(1);
    expect(run.recorder.of('stopped')).toHaveLength(0);
  });

  it('hits the breakpoint on the only line of a program that ends at once, 20 times in a row', async () => {
    const program = fixture('one_line.py');
    let hits = 0;
    for (let i = 0; i < 20; i++) {
      const run = createRun();
      const spec = breakpointAt(program, 'only');
      await run.engine.launch(launchConfig(program, { breakpoints: [spec] }));
      const stop = await run.recorder.next('stopped', 1);
      if (stop.hitBreakpointIds?.includes(spec.id)) hits++;
      await run.engine.terminate();
      await run.engine.dispose();
    }
    expect(hits).toBe(20);
  }, 180_000);
});
