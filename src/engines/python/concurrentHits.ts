/**
 * Threads that reached a breakpoint while another thread's stop held the program. pydevd suspends
 * every thread at a stop and tells of the first only (its log: "Suspend not sent (it was already
 * sent)"): a thread that hit a breakpoint in the same moment waits there unannounced, and the
 * continue that follows runs it past its hit. A print would have printed both; a probe counted one
 * hit of two. So a continue first looks for such a thread and stops there instead, as Visual Studio
 * reports a breakpoint hit queued behind the one it stopped at; the program runs on once no thread
 * waits at a breakpoint unannounced. Such a thread may even have been held on the breakpoint's line
 * before pydevd looked for a breakpoint there (it was held as one of all): it is about to run the
 * line, and a print there would print, so it stops there as a hit — when its condition allows.
 */
import type { DebugpyRequests } from './debugpyRequests.js';
import type { BreakpointIds } from './breakpointIds.js';

/** The trace event pydevd holds the evaluating thread at: a local of its do_wait_suspend, below the evaluation on that thread's stack. */
const HELD_AT_EVENT = "next((f.f_locals.get('event') for f, _ in __import__('traceback').walk_stack(None) if f.f_code.co_name == 'do_wait_suspend'), None)";

export class ConcurrentHits {
  private readonly live = new Set<number>();
  /** Threads whose stop at this suspension was told. */
  private told = new Set<number>();

  constructor(
    private readonly dap: DebugpyRequests,
    private readonly breakpointIds: BreakpointIds,
  ) {}

  threadStarted(threadId: number): void {
    this.live.add(threadId);
  }

  threadExited(threadId: number): void {
    this.live.delete(threadId);
  }

  /** pydevd told of a stop: a new suspension, this thread's. */
  stopped(threadId: number): void {
    this.told = new Set([threadId]);
  }

  /** A thread waiting at a breakpoint hit nobody was told of, now told; undefined when none. */
  async untold(): Promise<number | undefined> {
    if (![...this.live].some((id) => !this.told.has(id))) return undefined;
    const { threads } = await this.dap.call('threads', undefined);
    const untold = threads.map((t) => t.id).filter((id) => !this.told.has(id));
    const waiting = await Promise.all(untold.map((id) => this.waitsAtHit(id)));
    const first = untold.find((_, i) => waiting[i]);
    if (first !== undefined) this.told.add(first);
    return first;
  }

  /**
   * At a breakpoint's line, about to run it (the trace event it is held at is that line's: not the
   * return of a frame whose last line it was), and the breakpoint's condition, if any, true there.
   */
  private async waitsAtHit(threadId: number): Promise<boolean> {
    const stack = await this.dap.request('stackTrace', { threadId, startFrame: 0, levels: 1 }).catch(() => undefined);
    const top = stack?.stackFrames[0];
    const here = top ? this.breakpointIds.stoppingAt(top.source?.path, top.line, top.name) : [];
    if (!top || here.length === 0) return false;
    const value = (expression: string) => this.dap.request('evaluate', { expression, frameId: top.id, context: 'watch' }).then((r) => r.result, () => undefined);
    if ((await value(HELD_AT_EVENT)) !== "'line'") return false;
    for (const { condition } of here) if (!condition || (await value(`bool(${condition})`)) === 'True') return true;
    return false;
  }
}
