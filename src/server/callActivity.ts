/**
 * The client's tool calls in flight, as the stdio transport sees them: readying (core/readiness.ts)
 * waits for a quiet moment, so that it never competes with a call, and readies the runtime a
 * waiting launch names at once. Small and free of packages: the entry point loads it before the
 * first answer.
 */
import type { CallActivity, CallInFlight } from '../core/readiness.js';

type RequestId = string | number;

/** How long the calls must have been quiet before readying may take the CPU. */
const QUIET_MS = 300;

export class ToolCalls implements CallActivity {
  private readonly calls = new Map<RequestId, CallInFlight>();
  private lastEnded = 0;
  private readonly waiters = new Set<() => void>();
  private timer?: NodeJS.Timeout;

  /** A request or notification came in (before or after the server loaded). */
  request(message: { id?: unknown; method?: unknown; params?: unknown }): void {
    // A cancelled call is not answered (MCP): it ends here.
    if (message.method === 'notifications/cancelled') return this.response((message.params as { requestId?: RequestId } | undefined)?.requestId ?? '');
    // The client at work (initialize, tools/list): its first call is likely to follow at once.
    if (message.id !== undefined) this.lastEnded = Date.now();
    if (message.method !== 'tools/call' || (typeof message.id !== 'string' && typeof message.id !== 'number')) return;
    const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
    const call = { tool: String(params.name), args: (params.arguments ?? {}) as Record<string, unknown> };
    this.calls.set(message.id, call);
    this.onCall?.(call);
  }

  /** Told of each tool call as it comes in, before the server has loaded or handled it. */
  onCall?: (call: CallInFlight) => void;

  /** A response went out. */
  response(id: RequestId): void {
    if (!this.calls.delete(id)) return;
    this.lastEnded = Date.now();
    if (!this.calls.size) this.wakeWhenQuiet();
  }

  inFlight(): CallInFlight[] {
    return [...this.calls.values()];
  }

  quiet(): Promise<void> | undefined {
    if (this.isQuiet()) return undefined;
    return new Promise((resolve) => {
      this.waiters.add(resolve);
      if (!this.calls.size) this.wakeWhenQuiet();
    });
  }

  private isQuiet(): boolean {
    return this.calls.size === 0 && Date.now() - this.lastEnded >= QUIET_MS;
  }

  private wakeWhenQuiet(): void {
    clearTimeout(this.timer);
    if (!this.waiters.size) return;
    this.timer = setTimeout(() => {
      if (!this.isQuiet()) return;
      for (const wake of this.waiters) wake();
      this.waiters.clear();
    }, QUIET_MS - (Date.now() - this.lastEnded)).unref();
  }
}
