/**
 * The session state machine against a scripted engine (pure logic: no runtime involved).
 */
import { describe, expect, it } from 'vitest';
import type { Engine, EngineContext, EngineFactory } from '../../src/core/engine.js';
import { Session } from '../../src/core/session.js';
import type { SessionConfig } from '../../src/core/sessionConfig.js';

class ScriptedEngine {
  ctx!: EngineContext;
  disposed = false;
  launchDelayMs = 0;
  continued = 0;
  onContinue?: () => void;
  readonly capabilities = {} as Engine['capabilities'];
  async launch() {
    await new Promise((r) => setTimeout(r, this.launchDelayMs));
    return { breakpoints: [{ id: 1, verified: true, line: 3 }] };
  }
  async continue() {
    this.continued++;
    this.onContinue?.();
  }
  refuseStep = false;
  async step() {
    if (this.refuseStep) throw new Error('the runtime refused the step');
  }
  async stackTrace() {
    return { frames: [{ id: 100, name: 'main', file: '/nowhere/app.py', line: 3, column: 1 }] };
  }
  async scopes() {
    return [{ name: 'Locals', ref: 5, expensive: false }];
  }
  async variables() {
    return [{ name: 'x', value: '42', type: 'int', ref: 0 }];
  }
  async exceptionInfo() {
    return { type: 'ValueError', message: 'bad' };
  }
  async terminate() {}
  async dispose() {
    this.disposed = true;
  }
  diagnostics() {
    return { adapterStderr: [], pendingRequests: [] };
  }
}

function setup() {
  const engine = new ScriptedEngine();
  const factory = {
    language: 'fake',
    displayName: 'Fake',
    extensions: [],
    capabilities: {},
    detect: async () => ({ available: true }),
    create: (ctx: EngineContext) => {
      engine.ctx = ctx;
      return engine as unknown as Engine;
    },
  } as unknown as EngineFactory;
  const config: SessionConfig = { language: 'fake', program: '/app', args: [], cwd: '/', env: {}, stopOnEntry: false, exceptions: { filters: [] }, options: {} };
  const notes: string[] = [];
  const session = new Session('fake-1', config, factory, { notify: (_s, _l, m) => notes.push(m), changed: () => undefined, log: () => undefined });
  session.breakpoints.add({ file: '/nowhere/app.py', line: 2 });
  return { engine, session, notes };
}

const stop = (engine: ScriptedEngine, reason = 'breakpoint') => engine.ctx.emit({ type: 'stopped', reason, threadId: 1, hitBreakpointIds: [1] });

describe('Session', () => {
  it('applies the launch bindings and runs', async () => {
    const { session } = setup();
    await session.start(1000);
    expect(session.state).toBe('running');
    expect(session.breakpoints.get(1)?.binding).toMatchObject({ verified: true, line: 3 });
  });

  it('answers the current stop at once, with the top frame and locals', async () => {
    const { engine, session } = setup();
    await session.start(1000);
    stop(engine);
    const r = await session.waitForStop({ timeoutMs: 1000 });
    expect(r.status).toBe('stopped');
    expect(r.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'main', line: 3 }, locals: [{ name: 'x', value: '42' }], hitBreakpointIds: [1] });
    expect(session.breakpoints.get(1)?.hits).toBe(1);
    const again = await session.waitForStop({ timeoutMs: 50 });
    expect(again.status).toBe('stopped');
  });

  it('does not lose a stop that arrives before continue returns', async () => {
    const { engine, session } = setup();
    await session.start(1000);
    stop(engine);
    await session.waitForStop({ timeoutMs: 1000 });
    engine.onContinue = () => stop(engine, 'step'); // the runtime stops again before the reply
    const r = await session.continue({ wait: true, timeoutMs: 1000 });
    expect(r.status).toBe('stopped');
    expect(r.stop?.reason).toBe('step');
  });

  it('times out with the state, and an exit ends a wait with the exit code', async () => {
    const { engine, session } = setup();
    await session.start(1000);
    const timedOut = await session.waitForStop({ timeoutMs: 30 });
    expect(timedOut).toMatchObject({ status: 'timeout', state: 'running' });
    const waiting = session.waitForStop({ timeoutMs: 1000 });
    engine.ctx.emit({ type: 'output', category: 'stdout', text: 'bye\n' });
    engine.ctx.emit({ type: 'exited', exitCode: 7 });
    expect(await waiting).toMatchObject({ status: 'exited', exitCode: 7, state: 'exited', outputTail: 'bye\n' });
  });

  it('fails a launch that takes too long, and releases the engine', async () => {
    const { engine, session } = setup();
    engine.launchDelayMs = 500;
    await expect(session.start(30)).rejects.toMatchObject({ code: 'TIMEOUT' });
    expect(session.state).toBe('failed');
    expect(engine.disposed).toBe(true);
  });

  it('fails when the engine breaks, and tells the agent', async () => {
    const { engine, session, notes } = setup();
    await session.start(1000);
    engine.ctx.emit({ type: 'error', message: 'adapter crashed' });
    expect(session.state).toBe('failed');
    expect(session.snapshot().error).toBe('adapter crashed');
    expect(notes.join('\n')).toMatch(/failed: adapter crashed/);
  });

  it('refuses to step while running, saying what to do', async () => {
    const { session } = setup();
    await session.start(1000);
    await expect(session.step('over', { timeoutMs: 10 })).rejects.toMatchObject({ code: 'INVALID_STATE', hint: expect.stringMatching(/breakpoint_wait|execution_pause/) });
  });

  it('ends as terminated even when the program exits while being ended', async () => {
    const { engine, session } = setup();
    await session.start(1000);
    engine.terminate = async () => engine.ctx.emit({ type: 'exited', exitCode: 0 });
    const r = await session.end(false);
    expect(r.exitCode).toBe(0);
    expect(session.state).toBe('terminated');
    expect(engine.disposed).toBe(true);
  });

  it('stays stopped where it was when the engine refuses to step or continue', async () => {
    const { engine, session } = setup();
    await session.start(1000);
    stop(engine);
    await session.waitForStop({ timeoutMs: 1000 });
    engine.refuseStep = true;
    await expect(session.step('over', { timeoutMs: 1000 })).rejects.toThrow(/refused/);
    expect(session.state).toBe('stopped');
    expect(session.stop?.frame.name).toBe('main');
    engine.onContinue = () => {
      throw new Error('lost the connection');
    };
    await expect(session.continue({ timeoutMs: 1000, wait: false })).rejects.toThrow(/lost/);
    expect(session.state).toBe('stopped');
  });
});
