/**
 * The engine of a test session: the runtime's own engine, wrapped. It starts the runner (as the
 * debuggee, or beside it with the engine attached to the process that runs the tests), lets the
 * run go on past exceptions that do not fail the test, and past the pause a runner makes while it
 * waits for the debugger; a hosted run ends when its runner has printed its results. Its stops'
 * current frame is the innermost of the user's code (frames of libraries and of the runner are
 * marked as not the user's), and the run's end comes with the runner's verdict.
 */
import { setTimeout as delay } from 'node:timers/promises';
import type { Engine, EngineContext, EngineDiagnostics, EngineEvent, EngineFactory } from '../core/engine.js';
import { readThreadDumps } from '../core/hangReport.js';
import { DebugError } from '../core/errors.js';
import { isProcessRunning } from '../core/processAlive.js';
import type {
  AttachConfig,
  BreakpointBinding,
  BreakpointSpec,
  EvaluateResult,
  ExceptionBreakpointConfig,
  ExceptionInfo,
  FrameInfo,
  FunctionBreakpointSpec,
  LaunchConfig,
  LaunchResult,
  RunVerdict,
  ScopeInfo,
  StepKind,
  ThreadDump,
  ThreadInfo,
  VariableInfo,
} from '../core/types.js';
import { failureException } from './failureDetails.js';
import { firstUserFrame, isUserFrame, judgeException, type JudgeContext } from './failureJudge.js';
import { judgedStack } from './judgedStack.js';
import { RunnerProcess } from './runnerProcess.js';
import { StopBatch } from './stopBatch.js';
import { cappedVerdict, runnerVerdict } from './verdict.js';
import type { TestPlan } from './types.js';

const RUNNER_TAIL_CHARS = 1500;
/** Frames read for a stop's current frame. */
const LISTED_FRAMES = 60;
/** What a run's output keeps for its verdict (the runner's report is at its end). */
const OUTPUT_KEPT_CHARS = 200_000;

export interface TestEngineSpec {
  plan: TestPlan;
  /** Let exceptions that do not fail the test pass (the failure stop); off when every exception was asked for. */
  judge?: JudgeContext;
  /** Files of the runner that are not the user's (debugbridge's own launcher). */
  runnerFiles: string[];
}

export function testEngineFactory(inner: EngineFactory, spec: TestEngineSpec): EngineFactory {
  return { ...inner, create: (context) => new TestEngine(context, inner, spec) };
}

type Stopped = Extract<EngineEvent, { type: 'stopped' }>;

/** Attaching to a test host whose debugger pipe was not found yet is tried again, this often. */
const ATTACH_TRIES = 4;
const ATTACH_RETRY_MS = 300;
/** How long a runner whose test process is gone gets to end by itself (and print why). */
const RUNNER_END_GRACE_MS = 5000;
const TARGET_END_SETTLE_MS = 250;

export class TestEngine implements Engine {
  private inner: Engine;
  private runner?: RunnerProcess;
  /** A stop went to the session and the program has not run on since. */
  private stopShown = false;
  /** No stop has gone to the session yet: the run is still starting. */
  private starting = true;
  private pauseAsked = false;
  private ended = false;
  /** What the debuggee printed (a hosted runner keeps its own). */
  private output = '';
  private verdictSent = false;
  /** The failure the run stopped at, for the verdict of a run ended before its runner reported. */
  private failureSeen?: string;
  private readonly stops: StopBatch<Stopped>;

  constructor(
    private readonly context: EngineContext,
    private readonly factory: EngineFactory,
    private readonly spec: TestEngineSpec,
  ) {
    this.inner = this.createInner();
    this.stops = new StopBatch<Stopped>({
      decide: (event) => this.decide(event),
      show: (event) => this.show(event),
      passOn: (threadId) => this.passOn(threadId),
      stopShown: () => this.stopShown,
      resumesAll: () => this.inner.capabilities.continueResumes === 'all threads',
    });
  }

  private createInner(): Engine {
    return this.factory.create({ emit: (event) => this.onInner(event), log: this.context.log });
  }

  get capabilities() {
    return this.inner.capabilities;
  }

  get pid(): number | undefined {
    return this.inner.pid;
  }

  async launch(config: LaunchConfig, signal?: AbortSignal): Promise<LaunchResult> {
    const run = this.spec.plan.run;
    if (run.kind === 'launch') {
      return this.inner.launch({ ...config, program: run.program, args: run.args, cwd: run.cwd, env: { ...run.env, ...config.env }, options: { ...run.options, ...config.options } }, signal);
    }
    const runner = RunnerProcess.start({ command: run.command, args: run.args, cwd: run.cwd, env: { ...run.env, ...config.env } }, (category, text) =>
      this.context.emit({ type: 'output', category, text }),
    );
    this.runner = runner;
    let target;
    try {
      target = await runner.waitFor(run.target, signal);
    } catch (e) {
      await runner.end();
      throw e;
    }
    if (!target) {
      const exitCode = await runner.exited;
      throw new DebugError(
        'LAUNCH_FAILED',
        `${this.spec.plan.commandLine} ended (exit code ${exitCode ?? 'unknown'}) before it started the process that runs the tests.`,
        'Read its output below.',
        { runnerExitCode: exitCode, runnerOutput: runner.output.slice(-RUNNER_TAIL_CHARS) },
      );
    }
    const attach: AttachConfig = {
      ...target,
      breakpoints: config.breakpoints,
      functionBreakpoints: config.functionBreakpoints,
      exceptions: config.exceptions,
      options: { ...run.options, ...config.options },
    };
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.inner.attach(attach, signal);
      } catch (e) {
        // A .NET test host seen before its runtime or its debugger pipe is (intermittently, on a busy machine): try again.
        const early =
          e instanceof DebugError &&
          ((e.code === 'DEBUGGING_DISABLED' && /does not exist/.test(e.message)) || (e.code === 'ATTACH_FAILED' && /no libcoreclr\.so is mapped/.test(e.message)));
        if (!early || attempt >= ATTACH_TRIES || !runner.running || signal?.aborted) {
          throw await this.endAfterFailedAttach(runner, 'pid' in target ? target.pid : undefined, e);
        }
        this.context.log('info', `test run: attach attempt ${attempt} failed (${e.message}); trying again`);
        await new Promise((resolve) => setTimeout(resolve, ATTACH_RETRY_MS));
        this.inner = this.createInner();
      }
    }
  }

  /**
   * The runner after an attach that failed. When the test process was already gone or ending (a
   * host that found nothing to run may end before the debugger reaches it: then it has no runtime
   * mapped any more, or is a zombie), the runner's own end explains it — e.g. that no test matched —
   * so its output goes with the error.
   */
  private async endAfterFailedAttach(runner: RunnerProcess, targetPid: number | undefined, error: unknown): Promise<unknown> {
    let targetGone = targetPid !== undefined && !isProcessRunning(targetPid);
    if (targetPid !== undefined && !targetGone) {
      // One that is ending may still look alive for a moment (its memory already gone, not yet a zombie).
      await delay(TARGET_END_SETTLE_MS);
      targetGone = !isProcessRunning(targetPid);
    }
    if (targetGone) await Promise.race([runner.exited, delay(RUNNER_END_GRACE_MS)]);
    const endedOnItsOwn = !runner.running;
    await runner.end();
    if (!endedOnItsOwn) return error;
    const exitCode = await runner.exited;
    const why = error instanceof Error ? error.message : String(error);
    return new DebugError('LAUNCH_FAILED', `${this.spec.plan.commandLine} ended (exit code ${exitCode ?? 'unknown'}) while the debugger attached to its test process (${why}).`, 'Read its output below.', {
      runnerExitCode: exitCode,
      runnerOutput: runner.output.slice(-RUNNER_TAIL_CHARS),
    });
  }

  attach(config: AttachConfig, signal?: AbortSignal): Promise<LaunchResult> {
    return this.inner.attach(config, signal);
  }

  // ── events ─────────────────────────────────────────────────────────────────────────────────

  private onInner(event: EngineEvent): void {
    switch (event.type) {
      case 'stopped':
        this.stops.add(event);
        return;
      case 'continued':
        if (!this.stopShown) return;
        this.stopShown = false;
        break;
      case 'output':
        if (!this.runner) this.output = (this.output + event.text).slice(-OUTPUT_KEPT_CHARS);
        break;
      case 'exited':
      case 'terminated':
        if (this.runner) {
          void this.endWithRunner();
          return;
        }
        if (event.type === 'exited') this.sendVerdict(this.output, event.exitCode);
        break;
    }
    this.context.emit(event);
  }

  /** The runner's verdict on the run, read from what it printed, before the end is told. */
  private sendVerdict(output: string, exitCode: number | undefined): void {
    if (this.verdictSent) return;
    this.verdictSent = true;
    this.context.emit({ type: 'verdict', verdict: runnerVerdict(this.spec.plan, output, exitCode) });
  }

  /** The stop to show for this one, or undefined when the run goes on past it. */
  private async decide(event: Stopped): Promise<Stopped | undefined> {
    try {
      return await this.judge(event);
    } catch (e) {
      this.context.log('warning', `test run: could not judge a stop (${(e as Error).message}); showing it`);
      return event;
    }
  }

  private async judge(event: Stopped): Promise<Stopped | undefined> {
    const asked = this.pauseAsked;
    this.pauseAsked = false;
    // `dotnet test`'s host calls Debugger.Break() once attached; vitest's worker breaks on the test file's first line.
    if (this.starting && this.runner && !asked && !event.hitBreakpointIds?.length && event.reason !== 'exception' && event.reason !== 'breakpoint') return undefined;
    if (event.reason !== 'exception' && event.reason !== 'pause') return event;
    const judged = event.reason === 'exception' && this.spec.judge;
    const { frames, listed } = judged ? await judgedStack(this.inner, this.spec.plan.language, event.threadId) : await this.listedStack(event.threadId);
    const userFrame = firstUserFrame(listed, this.spec.runnerFiles);
    const frameIndex = userFrame < 0 ? undefined : userFrame;
    if (judged) {
      const verdict = judgeException(frames, this.spec.judge!);
      if (!verdict.failure) {
        this.context.log('debug', `test run: exception passed on (${verdict.why})`);
        return undefined;
      }
      const exception = await failureException(this.inner, event.threadId, event.exception, listed[userFrame], this.spec.plan.language);
      if (exception.type && this.spec.plan.notFailures?.test(exception.type)) {
        this.context.log('debug', `test run: ${exception.type} ends the test without failing it`);
        return undefined;
      }
      this.failureSeen = `${exception.type ?? 'exception'}${exception.message ? `: ${exception.message}` : ''}${listed[userFrame]?.file ? ` (${listed[userFrame].name}, ${listed[userFrame].file}:${listed[userFrame].line})` : ''}`;
      return { ...event, exception, frameIndex };
    }
    return { ...event, frameIndex };
  }

  private async passOn(threadId: number): Promise<void> {
    await this.inner.continue(threadId).catch((e: Error) => this.context.log('warning', `test run: could not pass a stop on (${e.message})`));
  }

  private async listedStack(threadId: number): Promise<{ frames: FrameInfo[]; listed: FrameInfo[] }> {
    const { frames } = await this.inner.stackTrace(threadId, 0, LISTED_FRAMES);
    return { frames, listed: frames };
  }

  private show(event: Stopped): void {
    this.stopShown = true;
    this.starting = false;
    this.context.emit(event);
  }

  /** The test process is gone; the run is over when the runner has printed its results. */
  private async endWithRunner(): Promise<void> {
    if (this.ended) return;
    this.ended = true;
    const exitCode = await this.runner!.exited;
    this.sendVerdict(this.runner!.output, exitCode);
    this.context.emit({ type: 'exited', exitCode });
    this.context.emit({ type: 'terminated' });
  }

  // ── delegation ─────────────────────────────────────────────────────────────────────────────

  setBreakpoints(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.inner.setBreakpoints(file, specs);
  }
  setFunctionBreakpoints(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    return this.inner.setFunctionBreakpoints(specs);
  }
  setExceptionBreakpoints(config: ExceptionBreakpointConfig): Promise<void> {
    return this.inner.setExceptionBreakpoints(config);
  }
  continue(threadId?: number): Promise<void> {
    this.stopShown = false;
    return this.inner.continue(threadId);
  }
  step(threadId: number, kind: StepKind): Promise<void> {
    this.stopShown = false;
    return this.inner.step(threadId, kind);
  }
  pause(threadId?: number): Promise<void> {
    this.pauseAsked = true;
    return this.inner.pause(threadId);
  }
  /** Present when the runtime under the test run can move the next statement. */
  get jump(): Engine['jump'] {
    const inner = this.inner;
    return inner.jump && ((threadId, file, line) => ((this.stopShown = false), inner.jump!(threadId, file, line)));
  }
  get restartFrame(): Engine['restartFrame'] {
    const inner = this.inner;
    return inner.restartFrame && ((threadId, frameId) => ((this.stopShown = false), inner.restartFrame!(threadId, frameId)));
  }
  threads(): Promise<ThreadInfo[]> {
    return this.inner.threads();
  }
  /** The runtime's frames, those that are not the user's code marked so (folded, stepped out of). */
  async stackTrace(threadId: number, startFrame: number, levels: number): Promise<{ frames: FrameInfo[]; totalFrames?: number }> {
    const stack = await this.inner.stackTrace(threadId, startFrame, levels);
    const frames = stack.frames.map((frame) => {
      // debugpy names the frame an exception is leaving "f (Current frame)" among its traceback's.
      const f = { ...frame, name: frame.name.replace(/ \(Current frame\)$/, '') };
      return f.presentationHint === 'label' || isUserFrame(f, this.spec.runnerFiles) ? f : { ...f, presentationHint: 'subtle' as const };
    });
    return { ...stack, frames };
  }
  threadDumps(levels: number): Promise<ThreadDump[]> {
    return readThreadDumps(this.inner, levels);
  }
  get pendingTasks(): Engine['pendingTasks'] {
    const inner = this.inner;
    return inner.pendingTasks && ((levels) => inner.pendingTasks!(levels));
  }
  scopes(frameId: number): Promise<ScopeInfo[]> {
    return this.inner.scopes(frameId);
  }
  /** pytest's assertion rewriting leaves its temporaries (`@py_assert1`, no name a test can have) among a test's locals. */
  async variables(ref: number, start?: number, count?: number): Promise<VariableInfo[]> {
    return (await this.inner.variables(ref, start, count)).filter((v) => !v.name.startsWith('@py_'));
  }
  evaluate(expression: string, frameId: number | undefined, context: 'repl' | 'watch' | 'hover', options?: { sideEffects?: boolean }): Promise<EvaluateResult> {
    return this.inner.evaluate(expression, frameId, context, options);
  }
  textSlice(expression: string, start: number, end: number): string {
    return this.inner.textSlice(expression, start, end);
  }
  setVariable(containerRef: number, name: string, value: string): Promise<EvaluateResult> {
    return this.inner.setVariable(containerRef, name, value);
  }
  exceptionInfo(threadId: number): Promise<ExceptionInfo | undefined> {
    return this.inner.exceptionInfo(threadId);
  }

  // ── end ────────────────────────────────────────────────────────────────────────────────────

  /**
   * Ends the run; one ended at a failure it stopped at has failed, whatever its runner would have
   * reported; any other was stopped by the user before its verdict (the killed runner's output is no
   * verdict: it read as 'did not run').
   */
  async terminate(): Promise<void> {
    if (!this.verdictSent) {
      this.verdictSent = true;
      const verdict: RunVerdict = this.failureSeen ? { status: 'failed', failureSummary: this.failureSeen } : { status: 'stopped' };
      this.context.emit({ type: 'verdict', verdict: cappedVerdict(verdict) });
    }
    await Promise.allSettled([this.inner.terminate(), this.runner?.end()]);
  }
  async detach(): Promise<void> {
    await this.inner.detach();
  }
  async dispose(): Promise<void> {
    await Promise.allSettled([this.inner.dispose(), this.runner?.end()]);
  }

  diagnostics(): EngineDiagnostics {
    const inner = this.inner.diagnostics();
    return {
      ...inner,
      details: { ...inner.details, testRunner: this.spec.plan.commandLine, runnerPid: this.runner?.pid, runnerRunning: this.runner?.running },
    };
  }
}
