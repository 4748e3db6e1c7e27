/**
 * Every isolate of a session — the main thread, the node processes the program starts, their
 * worker threads — numbered as threads (the main thread is 1). The breakpoints the session wants
 * go to each of them, and each new one is armed before it runs. Stops are shown one at a time: a
 * thread that pauses while another's stop is shown waits its turn, and is shown when that one
 * runs on.
 */
import { basename, dirname, extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { EngineEvent, LogLevel } from '../../core/engine.js';
import { DebugError } from '../../core/errors.js';
import type { BreakpointBinding, BreakpointSpec, ExceptionBreakpointConfig, FunctionBreakpointSpec, ThreadInfo } from '../../core/types.js';
import { CdpClient, type CdpEventParams } from './cdpClient.js';
import type { ChildReport } from './childProcesses.js';
import { isTypeScript } from './launchPlan.js';
import { NodeTarget, type TargetKind, type TargetOwner, type WantedBreakpoints } from './nodeTarget.js';
import { isDependency } from './scriptRegistry.js';
import { SourceMapCache, type LoadedMap } from './sourceMaps.js';
import { predictCompiled } from './compiledOutput.js';
import { HandleCounter } from './valueHandles.js';
import { WorkerSessions } from './workerSessions.js';

export const MAIN_THREAD_ID = 1;

export interface TargetsHost {
  emit(event: EngineEvent): void;
  log(level: LogLevel, message: string): void;
}

export class NodeTargets implements TargetOwner {
  readonly maps = new SourceMapCache();
  readonly counter = new HandleCounter();
  /** Set when node runs TypeScript as written (type stripping): its breakpoints bind by URL. */
  typesStrippedInPlace = false;
  /** Set when node runs compiled JavaScript itself (no loader): mapped breakpoints are placed ahead in it. */
  compiledEntry?: string;
  private readonly targets = new Map<number, NodeTarget>();
  private readonly workerSessions = new Map<NodeTarget, WorkerSessions>();
  private nextThreadId = MAIN_THREAD_ID + 1;
  private shown?: NodeTarget;
  private waiting: NodeTarget[] = [];
  private readonly state: WantedBreakpoints = { lines: new Map(), functions: [], exceptions: { filters: [] } };

  constructor(
    private readonly host: TargetsHost,
    readonly preloadUrl?: string,
  ) {}

  get main(): NodeTarget | undefined {
    return this.targets.get(MAIN_THREAD_ID);
  }

  list(): NodeTarget[] {
    return [...this.targets.values()];
  }

  get(threadId: number | undefined): NodeTarget {
    const target = this.targets.get(threadId ?? this.shown?.threadId ?? MAIN_THREAD_ID);
    if (!target) {
      const ids = this.list().map((t) => `${t.threadId} (${t.name})`).join(', ') || 'none';
      throw new DebugError('THREAD_NOT_FOUND', `No thread ${threadId}; the threads are: ${ids}.`, 'Call inspect_threads for the list.');
    }
    return target;
  }

  threads(): ThreadInfo[] {
    return this.list().map((t) => ({ id: t.threadId, name: t.paused && t !== this.shown ? `${t.name}, paused (its stop is shown next)` : t.name }));
  }

  ownerOfFrame(frameId: number): NodeTarget {
    const target = this.list().find((t) => t.ownsFrame(frameId));
    if (!target) throw new DebugError('FRAME_NOT_FOUND', `No frame #${frameId} (frames are valid while the program stays stopped).`, 'Read the stack again with inspect_stack.');
    return target;
  }

  ownerOfValue(ref: number): NodeTarget {
    const target = this.list().find((t) => t.ownsValue(ref));
    if (!target) throw new DebugError('VARIABLE_NOT_FOUND', `No value #${ref} (values are valid while the program stays stopped).`, 'List the scopes again with inspect_variables.');
    return target;
  }

  /** The target whose stop is shown, if any. */
  get stopped(): NodeTarget | undefined {
    return this.shown;
  }

  add(kind: TargetKind, cdp: CdpClient, name: string, pid?: number): NodeTarget {
    const threadId = kind === 'main' ? MAIN_THREAD_ID : this.nextThreadId++;
    const target = new NodeTarget(threadId, kind, name, cdp, this, pid);
    this.targets.set(threadId, target);
    if (kind !== 'worker') this.workerSessions.set(target, new WorkerSessions(cdp));
    cdp.onClose(() => this.removed(target));
    if (kind !== 'main') this.host.emit({ type: 'thread', reason: 'started', threadId, name });
    return target;
  }

  /** A node process the program started reported its inspector: connect, arm, let it run. */
  async attachProcess(report: ChildReport): Promise<NodeTarget> {
    const cdp = await CdpClient.connect(report.url);
    const target = this.add('process', cdp, `process ${report.pid}${report.script ? `: ${basename(report.script)}` : ''}`, report.pid);
    await this.arm(target);
    return target;
  }

  // ── what every isolate should have ─────────────────────────────────────────────────────────

  async setLines(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    if (specs.length) this.state.lines.set(file, specs);
    else this.state.lines.delete(file);
    return merge(specs.length, await Promise.all(this.list().map((t) => t.setLines(file, specs))));
  }

  async setFunctions(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    this.state.functions = specs;
    return merge(specs.length, await Promise.all(this.list().map((t) => t.setFunctions(specs))));
  }

  async setExceptions(config: ExceptionBreakpointConfig): Promise<void> {
    this.state.exceptions = config;
    await Promise.all(this.list().map((t) => t.setExceptions(config)));
  }

  /** Records what the session wants before any isolate exists (launch, attach). */
  want(lines: BreakpointSpec[], functions: FunctionBreakpointSpec[], exceptions: ExceptionBreakpointConfig): void {
    for (const spec of lines) this.state.lines.set(spec.file, [...(this.state.lines.get(spec.file) ?? []), spec]);
    this.state.functions = functions;
    this.state.exceptions = exceptions;
  }

  async bindings(ids: number[]): Promise<BreakpointBinding[]> {
    const lines = await Promise.all(this.list().map((t) => t.bindings(ids)));
    return ids.flatMap((id) => {
      const all = lines.flat().filter((b) => b.id === id);
      return all.find((b) => b.verified) ?? all.slice(0, 1);
    });
  }

  closeAll(): void {
    for (const target of this.list()) target.cdp.close();
  }

  // ── TargetOwner ────────────────────────────────────────────────────────────────────────────

  wanted(): WantedBreakpoints {
    return this.state;
  }

  direct(file: string): boolean {
    if (!isTypeScript(file) || this.typesStrippedInPlace) return true;
    // Attached to a program that runs this TypeScript as written (no source map).
    const url = pathToFileURL(file).href;
    return this.list().some((t) => t.scripts.byUrl(url).some((s) => !s.sourceMapURL));
  }

  async predict(file: string): Promise<{ url: string; map: LoadedMap }[]> {
    if (!this.compiledEntry) return [];
    // Only output beside the program node runs (or below it) is taken for what it will load: a
    // second build elsewhere (out/ beside out-inline/) would bind where nothing runs.
    const root = pathToFileURL(`${dirname(this.compiledEntry)}/`).href;
    return (await predictCompiled(file, [this.compiledEntry], this.maps)).filter((p) => p.url.startsWith(root));
  }

  paused(target: NodeTarget): void {
    if (this.shown && this.shown !== target) {
      if (!this.waiting.includes(target)) this.waiting.push(target);
      return;
    }
    this.show(target);
  }

  resumed(target: NodeTarget): void {
    this.waiting = this.waiting.filter((t) => t !== target);
    if (this.shown !== target) return;
    this.shown = undefined;
    this.host.emit({ type: 'continued', threadId: target.threadId, allThreadsContinued: this.targets.size === 1 });
    this.showNext();
  }

  binding(binding: BreakpointBinding): void {
    this.host.emit({ type: 'breakpoint', binding });
  }

  workerAttached(parent: NodeTarget, event: CdpEventParams<'NodeWorker.attachedToWorker'>): void {
    const sessions = this.workerSessions.get(parent);
    if (!sessions) return;
    const { workerId, url } = event.workerInfo;
    if (url.startsWith('node:') || isDependency(url)) return releaseWorker(parent.cdp, event.sessionId);
    const cdp = new CdpClient(sessions.open(event.sessionId, `${parent.cdp.url} worker ${workerId}`), { ackCarrier: false });
    parent.cdp.adopt(cdp);
    const script = url ? basename(url) : '';
    const owner = parent.kind === 'process' ? ` of process ${parent.pid}` : '';
    const target = this.add('worker', cdp, `worker ${workerId}${owner}${script && extname(script) ? `: ${script}` : ''}`);
    void this.arm(target);
  }

  log(level: LogLevel, message: string): void {
    this.host.log(level, message);
  }

  // ── internals ──────────────────────────────────────────────────────────────────────────────

  private async arm(target: NodeTarget): Promise<void> {
    try {
      // A process waits only once its preload reported it; a worker waits before node tells of it.
      await target.start({ held: target.kind === 'process' });
    } catch (e) {
      this.host.log('warning', `node engine: could not arm ${target.name}: ${(e as Error).message}`);
      await target.cdp.send('Runtime.runIfWaitingForDebugger').catch(() => undefined);
    }
  }

  private show(target: NodeTarget): void {
    const stop = target.stop;
    if (!stop) return;
    this.shown = target;
    const named = target.kind !== 'main' || this.targets.size > 1;
    this.host.emit({
      type: 'stopped',
      reason: stop.reason,
      threadId: target.threadId,
      threadName: named ? target.name : undefined,
      allThreadsStopped: this.targets.size === 1,
      hitBreakpointIds: stop.hitBreakpointIds,
      description: stop.description,
      exception: stop.exception,
    });
  }

  private showNext(): void {
    while (!this.shown && this.waiting.length) {
      const next = this.waiting.shift()!;
      if (next.stop) this.show(next);
    }
  }

  private removed(target: NodeTarget): void {
    this.targets.delete(target.threadId);
    this.workerSessions.delete(target);
    this.waiting = this.waiting.filter((t) => t !== target);
    if (target.kind !== 'main') this.host.emit({ type: 'thread', reason: 'exited', threadId: target.threadId, name: target.name });
    if (this.shown === target) {
      this.shown = undefined;
      if (target.kind !== 'main') this.host.emit({ type: 'continued', threadId: target.threadId, allThreadsContinued: false });
      this.showNext();
    }
  }
}

/**
 * Node's own workers (the off-thread module loader that tsx's hooks run in) and those of the
 * program's dependencies (esbuild's) are not the program's threads: let them run undebugged.
 */
function releaseWorker(parent: CdpClient, sessionId: string): void {
  const message = JSON.stringify({ id: 1, method: 'Runtime.runIfWaitingForDebugger' });
  void parent
    .send('NodeWorker.sendMessageToWorker', { sessionId, message })
    .then(() => parent.send('NodeWorker.detach', { sessionId }))
    .catch(() => undefined);
}

/** One binding per spec: the first isolate where it is verified, else the first answer. */
function merge(count: number, perTarget: BreakpointBinding[][]): BreakpointBinding[] {
  const out: BreakpointBinding[] = [];
  for (let i = 0; i < count; i++) {
    const candidates = perTarget.map((bindings) => bindings[i]).filter(Boolean);
    const chosen = candidates.find((b) => b.verified) ?? candidates[0];
    if (chosen) out.push(chosen);
  }
  return out;
}
