/**
 * The `cause` chain of a thrown value, read in the paused isolate in one call: each cause's
 * constructor name, message and stack text (for its throw site). Reading runs no user code but
 * getters named `cause` / `message`; a getter that throws ends the chain there.
 */
import type { Protocol } from 'devtools-protocol';
import type { CdpClient } from './cdpClient.js';

export interface ThrownCause {
  type: string;
  message: string;
  stack?: string;
}

const WALK_CAUSES = `function (max) {
  const out = [];
  const seen = new Set([this]);
  try {
    for (let e = this && this.cause; e !== undefined && e !== null && out.length < max && !seen.has(e); e = e.cause) {
      seen.add(e);
      if (e instanceof Error) out.push({ type: (e.constructor && e.constructor.name) || e.name || 'Error', message: String(e.message), stack: typeof e.stack === 'string' ? e.stack : undefined });
      else out.push({ type: typeof e, message: typeof e === 'object' ? Object.prototype.toString.call(e) : String(e) });
      if (typeof e !== 'object' && typeof e !== 'function') break;
    }
  } catch (_) {}
  return out;
}`;

/** Nearest first, at most `max`; empty for a thrown primitive or when the isolate cannot answer. */
export async function readCauses(cdp: CdpClient, thrown: Protocol.Runtime.RemoteObject, max: number): Promise<ThrownCause[]> {
  if (!thrown.objectId) return [];
  try {
    const { result } = await cdp.send('Runtime.callFunctionOn', {
      objectId: thrown.objectId,
      functionDeclaration: WALK_CAUSES,
      arguments: [{ value: max }],
      returnByValue: true,
      silent: true,
    });
    return Array.isArray(result.value) ? (result.value as ThrownCause[]) : [];
  } catch {
    return [];
  }
}
