/**
 * The client's tool calls in flight, as the stdio transport sees them: readying (core/readiness.ts)
 * waits for a quiet moment, so that it never competes with a call, and readies the runtime a
 * waiting launch names at once. Small and free of packages: the entry point loads it before the
 * first answer.
 */
import { CALLS_QUIET_MS } from '../core/clientCalls.js';
import { QuietMoments } from '../core/quietMoments.js';
import type { CallActivity, CallInFlight } from '../core/readiness.js';

type RequestId = string | number;

export class ToolCalls implements CallActivity {
  private readonly calls = new Map<RequestId, { call: CallInFlight; end: () => void }>();

  /** `moments`: where the calls are told (core/clientCalls.ts for the server's own transport). */
  constructor(private readonly moments = new QuietMoments(CALLS_QUIET_MS)) {}

  /** A request or notification came in (before or after the server loaded). */
  request(message: { id?: unknown; method?: unknown; params?: unknown }): void {
    // A cancelled call is not answered (MCP): it ends here.
    if (message.method === 'notifications/cancelled') return this.response((message.params as { requestId?: RequestId } | undefined)?.requestId ?? '');
    // The client at work (initialize, tools/list): its first call is likely to follow at once.
    if (message.id !== undefined) this.moments.touch();
    if (message.method !== 'tools/call' || (typeof message.id !== 'string' && typeof message.id !== 'number')) return;
    const params = (message.params ?? {}) as { name?: unknown; arguments?: unknown };
    const call = { tool: String(params.name), args: (params.arguments ?? {}) as Record<string, unknown> };
    this.calls.set(message.id, { call, end: this.moments.begin() });
    this.onCall?.(call);
  }

  /** Told of each tool call as it comes in, before the server has loaded or handled it. */
  onCall?: (call: CallInFlight) => void;

  /** A response went out. */
  response(id: RequestId): void {
    const answered = this.calls.get(id);
    if (!answered) return;
    this.calls.delete(id);
    answered.end();
  }

  inFlight(): CallInFlight[] {
    return [...this.calls.values()].map(({ call }) => call);
  }

  quiet(): Promise<void> | undefined {
    if (this.moments.isQuiet()) return undefined;
    return new Promise((resolve) => this.moments.whenQuiet(resolve, resolve));
  }
}
