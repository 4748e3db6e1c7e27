/**
 * What the proxy needs to know about a JSON-RPC line: its kind, id and method. Everything else is
 * forwarded untouched, so a line is parsed only to be classified, never re-serialised.
 */
export type RpcId = string | number;

export type RpcMessage =
  | { kind: 'request'; id: RpcId; method: string; params?: unknown }
  | { kind: 'notification'; method: string; params?: unknown }
  | { kind: 'response'; id: RpcId | null; result?: unknown; error?: unknown }
  | { kind: 'other' };

/** A line holds one message, or a batch of them, or something that is not JSON-RPC at all (`[]`). */
export function parseLine(line: Buffer): RpcMessage[] {
  let value: unknown;
  try {
    value = JSON.parse(line.toString('utf8'));
  } catch {
    return [];
  }
  return Array.isArray(value) ? value.map(classify) : [classify(value)];
}

export function classify(value: unknown): RpcMessage {
  if (typeof value !== 'object' || value === null) return { kind: 'other' };
  const m = value as Record<string, unknown>;
  const id = m.id;
  const hasId = typeof id === 'string' || typeof id === 'number';
  if (typeof m.method === 'string') {
    return hasId ? { kind: 'request', id, method: m.method, params: m.params } : { kind: 'notification', method: m.method, params: m.params };
  }
  if ('result' in m || 'error' in m) return { kind: 'response', id: hasId ? id : null, result: m.result, error: m.error };
  return { kind: 'other' };
}

/** Ids are compared by type and value: request 1 and request "1" are different requests. */
export function idKey(id: RpcId): string {
  return `${typeof id}:${id}`;
}

export const INTERNAL_ERROR = -32603;

export function errorResponse(id: RpcId, code: number, message: string, data?: unknown): Buffer {
  return Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, error: data === undefined ? { code, message } : { code, message, data } }));
}

export function requestLine(id: RpcId, method: string, params: unknown): Buffer {
  return Buffer.from(JSON.stringify({ jsonrpc: '2.0', id, method, params }));
}

export function notificationLine(method: string, params?: unknown): Buffer {
  return Buffer.from(JSON.stringify(params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params }));
}
