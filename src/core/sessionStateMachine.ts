/**
 * A session's state machine and the stops it goes through. A stop is numbered when it comes and is
 * the current stop once its details are read; a waiter wants a stop numbered above the count it saw
 * when it started, or the end of the run. Resuming clears the stop; a resume the engine refuses
 * puts it back.
 */
import { DebugError } from './errors.js';
import type { Stop, WaitOptions, WaitResult } from './sessionTypes.js';
import type { SessionStateName } from './types.js';
import { waitUntil } from './waitUntil.js';
import type { WatchValue } from './watchList.js';

const ACTIVE_STATES: SessionStateName[] = ['initializing', 'running', 'stopped'];

export interface StateMachineHooks {
  /** The program runs again: what was read at the stop is stale. */
  resumed(): void;
  /** The run is over (exited, failed or terminated). */
  ended(): void;
  /** Waiting on the session is using it. */
  touch(): void;
  /** How the run ended, for a wait that the end answers. */
  endOfRun(): Pick<WaitResult, 'exitCode' | 'exitSignal' | 'error' | 'outputTail' | 'verdict'>;
}

export class SessionStateMachine {
  private stateName: SessionStateName = 'initializing';
  private currentStop?: Stop;
  /** The thread of the last stop, known as soon as the stop is (its details come a moment later). */
  private stoppedThread?: number;
  /** Counts stops; a waiter wants a stop numbered above what it saw when it started. */
  private stopSeq = 0;
  private builtStopSeq = 0;
  private endedAtValue?: number;
  private readonly changeListeners = new Set<() => void>();

  constructor(
    private readonly sessionId: string,
    private readonly hooks: StateMachineHooks,
  ) {}

  get state(): SessionStateName {
    return this.stateName;
  }
  get active(): boolean {
    return ACTIVE_STATES.includes(this.stateName);
  }
  get stop(): Stop | undefined {
    return this.stateName === 'stopped' ? this.currentStop : undefined;
  }
  /** When the run ended; undefined while it is active. */
  get endedAt(): number | undefined {
    return this.active ? undefined : this.endedAtValue;
  }
  /** Stops of this run so far: a wait for the next one counts from here. */
  get stopCount(): number {
    return this.stopSeq;
  }

  set(state: SessionStateName): void {
    if (this.stateName === state) return;
    const wasActive = this.active;
    this.stateName = state;
    if (wasActive && !this.active) {
      this.endedAtValue = Date.now();
      this.hooks.ended();
    }
    this.changed();
  }

  /** A new run: initializing, no stop yet. */
  newRun(): void {
    this.set('initializing');
    this.stopSeq = this.builtStopSeq = 0;
    this.currentStop = undefined;
    this.stoppedThread = undefined;
  }

  /** The program stopped on `threadId`; answers the stop's number (its details are read next). */
  stopCame(threadId: number): number {
    const seq = ++this.stopSeq;
    this.stoppedThread = threadId;
    this.set('stopped');
    return seq;
  }

  /** The program has not run on since stop `seq`. */
  isLatest(seq: number): boolean {
    return seq === this.stopSeq;
  }

  /** Stop `seq`'s details are read: it is the current stop (waiters hear of it at the next `changed`). */
  stopRead(seq: number, stop: Stop): void {
    this.currentStop = stop;
    this.builtStopSeq = seq;
  }

  /** The current stop read again (a value changed): new details, the same time. */
  stopReread(stop: Stop): void {
    this.currentStop = { ...stop, at: this.currentStop!.at };
  }

  /** The current stop with the watches' values now (watches were added). */
  stopWatches(watches: WatchValue[] | undefined): void {
    this.currentStop = { ...this.currentStop!, watches };
  }

  /** The thread that stopped, for calls that default to it. */
  stoppedThreadId(): number {
    if (this.stateName !== 'stopped' || this.stoppedThread === undefined) this.require(['stopped'], 'use the stopped thread');
    return this.stoppedThread!;
  }

  /** The thread a continue resumes when the agent names none. */
  resumeThreadId(): number | undefined {
    return this.currentStop?.threadId ?? this.stoppedThread;
  }

  resumed(): void {
    this.hooks.resumed();
    this.currentStop = undefined;
    this.stoppedThread = undefined;
    this.set('running');
  }

  /** Lets the program run through `move`; answers the stop count it had, which a wait then counts from. */
  async resume(move: () => Promise<void>): Promise<number> {
    const seen = this.stopSeq;
    const [stop, thread] = [this.currentStop, this.stoppedThread];
    this.resumed();
    await move().catch((e: unknown) => this.stillStopped(stop, thread, seen, e));
    return seen;
  }

  /** The engine refused to resume: the program is where it was, so the session is too. */
  private stillStopped(stop: Stop | undefined, thread: number | undefined, seenSeq: number, error: unknown): never {
    if (this.stateName === 'running' && this.stopSeq === seenSeq && stop) {
      this.currentStop = stop;
      this.stoppedThread = thread;
      this.set('stopped');
    }
    throw error;
  }

  /** The current stop if stopped; else waits for the next stop or the end. */
  waitForStop(options: WaitOptions): Promise<WaitResult> {
    const since = this.stateName === 'stopped' ? this.stopSeq - 1 : this.stopSeq;
    return this.waitForStopAfter(since, options);
  }

  async waitForStopAfter(seenSeq: number, { timeoutMs, signal, onProgress }: WaitOptions): Promise<WaitResult> {
    const t0 = Date.now();
    const outcome = await waitUntil(
      { subscribe: (listener) => (this.changeListeners.add(listener), () => this.changeListeners.delete(listener)) },
      () => (this.builtStopSeq > seenSeq && this.stateName === 'stopped' ? 'stopped' : !this.active ? 'ended' : undefined),
      {
        timeoutMs,
        signal,
        onTick: (ms) => {
          this.hooks.touch(); // waiting on the session is using it
          onProgress?.(`waiting for a stop: ${this.stateName}, ${Math.round(ms / 1000)} s`);
        },
      },
    );
    this.hooks.touch();
    const base = { state: this.stateName, waitedMs: Date.now() - t0 };
    if (outcome.kind === 'cancelled') return { ...base, status: 'timeout', error: 'cancelled by the client' };
    if (outcome.kind === 'timeout') return { ...base, status: 'timeout' };
    if (outcome.value === 'stopped') return { ...base, status: 'stopped', stop: this.currentStop };
    return { ...base, status: 'exited', ...this.hooks.endOfRun() };
  }

  /** Tells the waiters that something changed. */
  changed(): void {
    for (const listener of [...this.changeListeners]) listener();
  }

  require(allowed: SessionStateName[], action: string): void {
    if (allowed.includes(this.stateName)) return;
    const next =
      this.stateName === 'running'
        ? 'Wait for a stop with breakpoint_wait, or interrupt with execution_pause.'
        : this.stateName === 'initializing'
          ? 'Wait for session_launch to answer.'
          : 'The program is not running: session_restart runs it again.';
    throw new DebugError('INVALID_STATE', `Cannot ${action}: session ${this.sessionId} is ${this.stateName}.`, next);
  }
}
