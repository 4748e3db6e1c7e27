/**
 * A ready debuggee: one Python process prepared ahead of a launch. debugpy's adapter, launcher
 * and debuggee are started as for any launch (with readyLauncher.ts's file as the program) and
 * left waiting for configurationDone, so Python is up, debugpy and pydevd are imported and
 * connected (pydevd's import and its fixed 0.1 s sleep on connect are behind us). A launch with
 * the same interpreter and environment takes it, arms its breakpoints, names the program and its
 * working folder and lets it run: the process becomes that program. It waits in a folder of ours
 * (the launcher's), not in the last launch's: a process that holds a user's project folder open
 * while no session of theirs runs there would be a surprise.
 *
 * One waits at a time. The first is prepared once Python is in play (core/readiness.ts); the next
 * after each launch, for the next launch like it, once the calls pause (callsQuiet.ts). Both at the
 * lowest priority until a launch takes them, where the priority can be given back (a program must
 * not keep a priority it did not ask for). It never holds our
 * process open and ends with it (its adapter ends when our end of its stdin closes).
 * DEBUGBRIDGE_READY_DEBUGGEE=0 turns it off.
 */
import type { LaunchConfig } from '../../core/types.js';
import { startAdapter, type AdapterConnection } from './adapterConnection.js';
import { launchArguments } from './debugpyArguments.js';
import { restorePriority, startAtLowPriority } from '../../core/processPriority.js';
import { newSpecPath, readyFolder, readyLauncherFile, removeLaunchSpec } from './readyLauncher.js';

/** What must be the same for a program to tell no difference from a normal launch. */
export interface ReadyTarget {
  executable: string;
  /** The launch's own variables (the rest is our process's environment, which the adapter inherits). */
  env: Record<string, string>;
  justMyCode: boolean;
  socketTuning: boolean;
}

/** Longer than any healthy preparation (about half a second): past this it is given up. */
const PREPARE_LIMIT_MS = 30_000;

export function readyTargetOf(config: LaunchConfig, executable: string, socketTuning: boolean): ReadyTarget {
  return { executable, env: config.env, justMyCode: config.options.justMyCode !== false, socketTuning };
}

export function readyDebuggeesOff(): boolean {
  return process.env.DEBUGBRIDGE_READY_DEBUGGEE === '0';
}

export class ReadyDebuggee {
  readonly adapter: AdapterConnection;
  readonly specPath = newSpecPath();
  /** When its adapter was started (performance.now()): a launch's steps say how long before it that was. */
  readonly startedAt = performance.now();
  /** The launch request, answered once configurationDone lets the program run. */
  readonly launched: Promise<unknown>;
  /** Resolves when debugpy waits for configurationDone; rejects when it cannot get there. */
  readonly ready: Promise<void>;
  private state: 'preparing' | 'ready' | 'failed' | 'taken' = 'preparing';
  private lowered: boolean;

  constructor(
    readonly target: ReadyTarget,
    readonly key: string,
    lowPriority: boolean,
  ) {
    const start = () => startAdapter(target.executable, { socketTuning: target.socketTuning });
    ({ started: this.adapter, lowered: this.lowered } = lowPriority ? startAtLowPriority(start) : { started: start(), lowered: false });
    this.adapter.process.holdEventLoop(false);
    // debugpy holds the debuggee's `process` and `output` events back until the launch is answered,
    // that is until the launch that takes it is listening.
    const client = this.adapter.client;
    const initialized = client.once('initialized');
    const args = launchArguments(
      { program: readyLauncherFile(), args: [this.specPath], cwd: readyFolder(), env: target.env, stopOnEntry: false, options: { justMyCode: target.justMyCode } },
      target.executable,
    );
    // Sent behind `initialize` without waiting for its answer (debugpy handles them in order): the
    // preparation goes on while this thread is busy (the server loading beside the first launch).
    this.launched = client.request('launch', args, { timeoutMs: Infinity });
    this.launched.catch(() => {});
    let limit: NodeJS.Timeout | undefined;
    const failed = new Promise<never>((_, reject) => {
      client.onClose((reason) => reject(new Error(`its debugpy adapter ended${reason ? `: ${reason.message}` : ''}`)));
      this.launched.then(() => reject(new Error('debugpy started it without waiting')), reject);
      limit = setTimeout(() => reject(new Error(`not ready within ${PREPARE_LIMIT_MS} ms`)), PREPARE_LIMIT_MS).unref();
    });
    this.ready = Promise.race([initialized, failed]);
    // The limit is cleared once decided: pending, its timer held this client, and the session that took it, for its whole 30 s.
    this.ready.then(
      () => {
        clearTimeout(limit);
        if (this.state === 'preparing') this.state = 'ready';
      },
      (e: Error) => {
        clearTimeout(limit);
        if (this.state === 'taken') return;
        if (idle === this) unprepared = e.message;
        void this.discard();
      },
    );
  }

  /** Waiting for a launch, and its adapter still there (it may die while it waits). */
  get usable(): boolean {
    return (this.state === 'preparing' || this.state === 'ready') && !this.adapter.client.closed && this.adapter.process.running;
  }

  get waiting(): 'preparing' | 'ready' | undefined {
    return this.usable ? (this.state as 'preparing' | 'ready') : undefined;
  }

  /** Claims it for a launch: from now on it runs at our priority and belongs to the caller. */
  take(): void {
    this.normalPriority();
    this.state = 'taken';
    this.adapter.process.holdEventLoop(true);
  }

  /** Our priority for the rest of its preparation and for the program it becomes. */
  normalPriority(): void {
    if (!this.lowered) return;
    this.lowered = false;
    this.giveBackPriority();
    // A process started while we walked the tree may have been missed: once all are up, again.
    if (this.state === 'preparing') this.ready.then(() => this.giveBackPriority(), () => {});
  }

  /**
   * The adapter first, then its descendants until a listing finds none new: a process its parent
   * starts after the parent got our priority back is born with it, and one started before (the
   * launcher starting the program while we walk) is found by the next listing. Listed once and
   * restored after, a program started meanwhile kept the lowest priority for its whole preparation.
   */
  private giveBackPriority(): void {
    const adapterPid = this.adapter.process.pid;
    if (!adapterPid) return;
    restorePriority([adapterPid]);
    const restored = new Set([adapterPid]);
    for (let fresh = this.adapter.process.descendants(); fresh.length; ) {
      restorePriority(fresh);
      for (const pid of fresh) restored.add(pid);
      fresh = this.adapter.process.descendants().filter((pid) => !restored.has(pid));
    }
  }

  /** Ends it with everything it started (closing its adapter's stdin ends the debug session). */
  async discard(): Promise<void> {
    if (this.state !== 'taken') this.state = 'failed';
    if (idle === this) idle = undefined;
    removeLaunchSpec(this.specPath);
    await this.adapter.process.end({ withDescendants: true }).catch(() => undefined);
  }
}

let idle: ReadyDebuggee | undefined;
/** Why the last preparation failed (a launch that finds none says so). */
let unprepared: string | undefined;

/**
 * The first ready debuggee, readied ahead of any launch (Python is in play): at low priority unless
 * a launch already waits for it, so a launch that comes meanwhile is not slowed (it takes it over
 * at our priority); not in place of one already waiting. Never throws; the one waiting, if any.
 */
export function prepareFirstReadyDebuggee(target: ReadyTarget, lowPriority = true): ReadyDebuggee | undefined {
  if (!idle?.usable) prepare(target, lowPriority);
  return idle;
}

/** The next one after a launch, for the next launch like it, in place of one waiting for another target. Never throws. */
export function prepareNextReadyDebuggee(target: ReadyTarget): void {
  const key = keyOf(target);
  if (!(idle?.usable && idle.key === key)) prepare(target, true);
}

/** A launch that will take the one being prepared waits for it: our priority from now on. */
export function hurryReadyDebuggee(): void {
  if (idle?.waiting === 'preparing') idle.normalPriority();
}

function prepare(target: ReadyTarget, lowPriority: boolean): void {
  if (readyDebuggeesOff()) return;
  void idle?.discard();
  try {
    idle = new ReadyDebuggee(target, keyOf(target), lowPriority);
    unprepared = undefined;
  } catch (e) {
    idle = undefined;
    unprepared = (e as Error).message;
  }
}

/**
 * The ready debuggee for this launch, now the caller's; else why the launch starts normally.
 * It may still be preparing: the caller waits for `ready`.
 */
export function takeReadyDebuggee(target: ReadyTarget, launch: Pick<LaunchConfig, 'program' | 'stopOnEntry'>): { debuggee: ReadyDebuggee } | { reason: string } {
  const refused = checkLaunch(launch);
  if ('reason' in refused) return refused;
  const candidate = idle;
  if (!candidate?.usable) return { reason: `no ready debuggee was waiting${unprepared ? ` (the last one could not be prepared: ${unprepared})` : ''}` };
  if (candidate.key !== keyOf(target)) return { reason: `the ready debuggee waits with ${differences(candidate.target, target)}` };
  idle = undefined;
  candidate.take();
  return { debuggee: candidate };
}

/** Whether a ready debuggee waits that this launch may take (its interpreter is checked once known). */
export function readyDebuggeeMayFit(config: LaunchConfig, socketTuning: boolean): boolean {
  if (!idle?.usable || !('debuggee' in checkLaunch(config))) return false;
  const wanted = readyTargetOf(config, idle.target.executable, socketTuning);
  return idle.key === keyOf(wanted);
}

/** The waiting ready debuggee's state, for tests and diagnostics. */
export function readyDebuggeeState(): { state: 'preparing' | 'ready'; adapterPid?: number; target: ReadyTarget } | undefined {
  const state = idle?.waiting;
  return state && idle ? { state, adapterPid: idle.adapter.process.pid, target: idle.target } : undefined;
}

/** Why a launch cannot start from a ready debuggee, whichever waits. */
function checkLaunch(launch: Pick<LaunchConfig, 'program' | 'stopOnEntry'>): { reason: string } | { debuggee: true } {
  if (readyDebuggeesOff()) return { reason: 'ready debuggees are off (DEBUGBRIDGE_READY_DEBUGGEE=0)' };
  if (launch.stopOnEntry) return { reason: 'stopOnEntry launches start normally' };
  if (!/\.pyw?$/i.test(launch.program)) return { reason: 'only .py files start from a ready debuggee' };
  return { debuggee: true };
}

function keyOf(target: ReadyTarget): string {
  // Our own environment too: the adapter (and so the program) inherits it as it was when started.
  return JSON.stringify([target.executable, sorted(target.env), target.justMyCode, target.socketTuning, sorted(process.env)]);
}

function sorted(env: Record<string, string | undefined>): [string, string | undefined][] {
  return Object.entries(env).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

function differences(waiting: ReadyTarget, wanted: ReadyTarget): string {
  const found = [
    waiting.executable !== wanted.executable && `interpreter ${waiting.executable}`,
    JSON.stringify(sorted(waiting.env)) !== JSON.stringify(sorted(wanted.env)) && 'other environment variables',
    waiting.justMyCode !== wanted.justMyCode && `justMyCode ${waiting.justMyCode}`,
    waiting.socketTuning !== wanted.socketTuning && `socketTuning ${waiting.socketTuning}`,
  ].filter(Boolean);
  return found.length ? found.join(', ') : "the server's environment as it was when it was prepared";
}
