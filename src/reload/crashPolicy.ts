/**
 * When a crashed server is started again: after an exponentially growing delay, and not at all
 * once it has crashed too often within a window (then a file change has to fix it first).
 */
export interface CrashPolicyLimits {
  firstDelayMs: number;
  maxDelayMs: number;
  maxCrashes: number;
  windowMs: number;
}

export type CrashDecision = { restart: true; delayMs: number } | { restart: false; crashes: number; windowMs: number };

export const defaultCrashLimits: CrashPolicyLimits = { firstDelayMs: 250, maxDelayMs: 10_000, maxCrashes: 5, windowMs: 60_000 };

export class CrashPolicy {
  private crashTimes: number[] = [];

  constructor(
    private readonly limits: CrashPolicyLimits = defaultCrashLimits,
    private readonly now: () => number = Date.now,
  ) {}

  recordCrash(): CrashDecision {
    const now = this.now();
    this.crashTimes = this.crashTimes.filter((t) => now - t < this.limits.windowMs);
    this.crashTimes.push(now);
    const crashes = this.crashTimes.length;
    if (crashes >= this.limits.maxCrashes) return { restart: false, crashes, windowMs: this.limits.windowMs };
    const delayMs = Math.min(this.limits.firstDelayMs * 2 ** (crashes - 1), this.limits.maxDelayMs);
    return { restart: true, delayMs };
  }

  /** A deliberate reload (a file change) starts with a clean record. */
  reset(): void {
    this.crashTimes = [];
  }
}
