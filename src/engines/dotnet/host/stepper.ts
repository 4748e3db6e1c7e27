/**
 * Source-level steps over the runtime's IL steppers: a step covers the IL range of the current
 * statement, never ends on hidden code, and keeps to the user's code (Just My Code). Stepping over an
 * `await` that yields ends on the next statement of the same async method, wherever it resumes: a
 * breakpoint at the await's resume offset (from the PDB's async stepping information) catches it.
 * Stepping out of an async method, or off its last statement, ends where its awaiter takes its result
 * (asyncAwaiter.ts), not where the thread that ran it happens to return.
 */
import type { StepKind } from '../../../core/types.js';
import type { BreakpointBook } from './breakpointBook.js';
import type { ModuleRegistry } from './moduleRegistry.js';
import type { Native } from './nativeSession.js';
import type { ModuleSymbols } from '../symbols/moduleSymbols.js';
import type { AsyncAwaiters, AwaitedTask } from './asyncAwaiter.js';
import type { StackReader } from './stackReader.js';

/** A step that keeps landing on hidden code gives up after this many tries and stops where it is. */
const MAX_RESTEPS = 12;
const ASYNC_RESUME = 'async-resume';
const AWAITER_RESUME = 'awaiter-resume';

interface ActiveStep {
  threadId: number;
  kind: StepKind;
  attempts: number;
  /** Stepping over an await: the method that must resume. */
  awaitIn?: { module: number; methodToken: number };
  /** Stepping out of (or off the end of) an async method: the task whose awaiter the step goes to. */
  awaited?: AwaitedTask;
  /** The method a step out leaves (to find the call that returned, for `$returnValue`). */
  leaving?: { module: number; methodToken: number };
}

/** What the debugger does after a step event: report the stop, or let the program run on. */
export type StepOutcome = 'stop' | 'running';

/** After a step out: the call instruction in the caller whose return value the runtime can give. */
export interface ReturnSite {
  threadId: number;
  ilOffset: number;
}

const CALL_OPCODES = new Set([0x28 /* call */, 0x6f /* callvirt */, 0x73 /* newobj */]);

export class Stepper {
  private active?: ActiveStep;
  /** Where the last step out returned to, for `$returnValue`. */
  returnSite?: ReturnSite;

  constructor(
    private readonly native: () => Native | undefined,
    private readonly stack: StackReader,
    private readonly modules: ModuleRegistry,
    private readonly breakpoints: BreakpointBook,
    private readonly awaiters: AsyncAwaiters,
  ) {}

  get stepping(): boolean {
    return this.active !== undefined;
  }

  /** Starts a step and lets the program run. */
  async start(threadId: number, kind: StepKind): Promise<void> {
    await this.cancel();
    this.returnSite = undefined;
    this.active = { threadId, kind, attempts: 0 };
    await this.stepFromHere(this.active);
  }

  /** The step under way on `threadId` (if any) starts again from where the thread is: its frame moved to an edited method's new body. */
  async restart(threadId: number): Promise<boolean> {
    const step = this.active;
    if (!step || step.threadId !== threadId) return false;
    await this.native()?.call('cancelStep', {});
    await this.stepFromHere(step);
    return true;
  }

  /** The runtime finished a step on `threadId`. */
  async completed(threadId: number): Promise<StepOutcome> {
    const step = this.active;
    if (!step || step.threadId !== threadId) return 'stop';
    const top = await this.stack.top(threadId);
    if (step.awaitIn && (!top || top.handle.methodToken !== step.awaitIn.methodToken)) {
      // The await yielded and the method returned to its caller: run until it resumes.
      await this.native()?.call('continue', {});
      return 'running';
    }
    const symbols = top ? this.modules.get(top.handle.module)?.symbols : undefined;
    const hidden = !top || !symbols || symbols.isHidden(top.handle.methodToken, top.handle.ilOffset, top.handle.version);
    if (hidden && step.attempts < MAX_RESTEPS) {
      step.attempts++;
      await this.stepFromHere(step);
      return 'running';
    }
    if (step.kind === 'out' && top && symbols && step.leaving) this.returnSite = this.callSite(threadId, top.handle, step.leaving);
    await this.finish();
    return 'stop';
  }

  /**
   * A task notified that a wait took its result (on `threadId`, inside the framework): if it is the
   * task the step left, the step goes on from there, out to the awaiter's next statement.
   */
  async awaiterResumed(threadId: number): Promise<StepOutcome> {
    const step = this.active;
    // A notification that cannot be told apart is ours: only the tasks a step asked notify.
    if (!step?.awaited || !(await this.awaiters.isNotifying(threadId, step.awaited).catch(() => true))) {
      await this.native()?.call('release', {});
      return 'running';
    }
    await this.disarmAwaiter(step);
    step.threadId = threadId;
    step.kind = 'over';
    await this.stepFromHere(step);
    return 'running';
  }

  /** An await the step was waiting for resumed (its resume breakpoint was hit on `threadId`). */
  async resumed(threadId: number): Promise<StepOutcome> {
    const step = this.active;
    if (!step?.awaitIn) {
      await this.native()?.call('release', {});
      return 'running';
    }
    await this.breakpoints.removeInternal(ASYNC_RESUME);
    step.awaitIn = undefined;
    step.threadId = threadId;
    step.kind = 'over';
    await this.stepFromHere(step);
    return 'running';
  }

  /**
   * The call that returned to the caller: in the caller's current statement, the call instruction
   * (opcode and 4-byte token) naming the method the step left (same module: its MethodDef token).
   */
  private callSite(threadId: number, caller: { module: number; methodToken: number; ilOffset: number }, left: { module: number; methodToken: number }): ReturnSite | undefined {
    const symbols = this.modules.get(caller.module)?.symbols;
    const method = symbols?.metadata.methodByToken(caller.methodToken);
    const range = symbols?.statementRange(caller.methodToken, caller.ilOffset);
    if (!symbols || !method || !range || left.module !== caller.module) return undefined;
    const il = symbols.metadata.ilCode(method);
    for (let at = range.start; at + 5 <= Math.min(range.end, il.length); at++) {
      if (CALL_OPCODES.has(il[at]!) && il.readUInt32LE(at + 1) === left.methodToken) return { threadId, ilOffset: at };
    }
    return undefined;
  }

  async cancel(): Promise<void> {
    if (!this.active) return;
    await this.finish();
  }

  private async finish(): Promise<void> {
    const step = this.active;
    this.active = undefined;
    await this.native()?.call('cancelStep', {});
    await this.breakpoints.removeInternal(ASYNC_RESUME);
    if (step) await this.disarmAwaiter(step);
  }

  private async disarmAwaiter(step: ActiveStep): Promise<void> {
    if (!step.awaited) return;
    const awaited = step.awaited;
    step.awaited = undefined;
    await this.breakpoints.removeInternal(AWAITER_RESUME);
    await this.awaiters.forget(awaited);
  }

  private async stepFromHere(step: ActiveStep): Promise<void> {
    const native = this.native();
    if (!native) throw new Error('the program is not being debugged');
    const top = await this.stack.top(step.threadId);
    const symbols = top ? this.modules.get(top.handle.module)?.symbols : undefined;
    if (!top || !symbols) {
      // Outside the user's code (e.g. paused in the framework): go back to it.
      await native.call('step', { threadId: step.threadId, kind: 'out', ranges: [], justMyCode: true });
      return;
    }
    const { module, methodToken, ilOffset, version } = top.handle;
    if (step.kind === 'out') step.leaving ??= { module, methodToken };
    const range = symbols.statementRange(methodToken, ilOffset, version);
    // Past an await that yielded (waiting for it to resume), the method returns without finishing.
    if (!step.awaited && !step.awaitIn && this.leavesAsyncMethod(step.kind, symbols, methodToken, ilOffset, range)) {
      step.awaited = await this.awaiters.watch(top.handle).catch(() => undefined);
      if (step.awaited) {
        // No stepper: the awaiter takes the result on whichever thread, whenever it gets to it.
        await this.breakpoints.placeInternal(AWAITER_RESUME, step.awaited.module, step.awaited.target);
        await native.call('cancelStep', {});
        await native.call('continue', {});
        return;
      }
    }
    if (step.kind === 'over' && range) {
      const awaits = (symbols.asyncInfo(methodToken)?.awaits ?? []).filter((a) => a.yieldOffset >= range.start && a.yieldOffset < range.end);
      for (const a of awaits) await this.breakpoints.placeInternal(ASYNC_RESUME, module, { methodToken: a.resumeMethod, ilOffset: a.resumeOffset });
      if (awaits.length > 0) step.awaitIn = { module, methodToken };
    }
    await native.call('step', {
      threadId: step.threadId,
      kind: step.kind,
      ranges: step.kind === 'out' || !range ? [] : [[range.start, range.end]],
      justMyCode: true,
    });
  }

  /**
   * Whether the step leaves the async method it is in: a step out, or a step over or into from its
   * last statement (the closing brace, where it completes its task) with no await left to yield at.
   */
  private leavesAsyncMethod(kind: StepKind, symbols: ModuleSymbols, methodToken: number, ilOffset: number, range: { end: number } | undefined): boolean {
    const info = symbols.asyncInfo(methodToken);
    if (!info) return false;
    if (kind === 'out') return true;
    const end = range?.end ?? Number.POSITIVE_INFINITY;
    return symbols.isLastStatement(methodToken, ilOffset) && !info.awaits.some((a) => a.yieldOffset >= ilOffset && a.yieldOffset < end);
  }
}

export const asyncResumeTag = ASYNC_RESUME;
export const awaiterResumeTag = AWAITER_RESUME;
