/**
 * Where a .NET launch spends its time before the first stop, for session_diagnostics: moments marked
 * by the server, the debugger host and the native handshake (ms since the epoch, one machine's clock),
 * and the module loads the program waited in while the host read symbols and bound breakpoints.
 */
export const wallClock = (): number => performance.timeOrigin + performance.now();

export interface StartupTimes {
  /** Moments, ms since the epoch. */
  marks: Record<string, number>;
  /** Module loads the program was held in, and for how long in all. */
  modules: number;
  moduleMs: number;
}

export class StartupTimeline {
  private readonly times: StartupTimes = { marks: {}, modules: 0, moduleMs: 0 };

  /** The first time only: a later module load or stop is no start-up moment. */
  mark(name: string, at = wallClock()): void {
    this.times.marks[name] ??= at;
  }

  merge(marks: Record<string, number> | undefined): void {
    for (const [name, at] of Object.entries(marks ?? {})) this.mark(name, at);
  }



  /** A module load the program waits in while the host handles it. */
  async heldLoad<T>(work: () => Promise<T>): Promise<T> {
    const started = wallClock();
    this.mark('firstHeldModule', started);
    try {
      return await work();
    } finally {
      this.times.modules++;
      this.times.moduleMs += wallClock() - started;
    }
  }

  get marks(): Readonly<Record<string, number>> {
    return this.times.marks;
  }

  get current(): StartupTimes {
    return { marks: { ...this.times.marks }, modules: this.times.modules, moduleMs: this.times.moduleMs };
  }

  /**
   * ms from `origin` to each moment, in order, with another process's timeline (the host's, which
   * holds the handshake's marks and the module loads), rounded to 0.1 ms.
   */
  relativeTo(origin: number, other?: StartupTimes): Record<string, number> {
    const round = (ms: number) => Math.round(ms * 10) / 10;
    const entries = Object.entries({ ...other?.marks, ...this.times.marks }).sort(([, a], [, b]) => a - b);
    const modules = other ?? this.times;
    return { ...Object.fromEntries(entries.map(([name, at]) => [name, round(at - origin)])), moduleLoads: modules.modules, moduleLoadMs: round(modules.moduleMs) };
  }
}
