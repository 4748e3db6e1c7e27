/**
 * The tool catalog: what `initialize` and `tools/list` answer, written at build time so a starting
 * server can answer both before it has loaded the MCP SDK and zod (which take most of a cold start).
 * A fingerprint of the compiled server files guards against a stale catalog: when it does not match,
 * the server simply answers through the SDK.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface ToolCatalog {
  fingerprint: string;
  supportedProtocolVersions: string[];
  latestProtocolVersion: string;
  initialize: { capabilities: Record<string, unknown>; serverInfo: { name: string; version: string }; instructions?: string };
  tools: unknown[];
}

const SERVER_DIR = fileURLToPath(new URL('.', import.meta.url));
export const CATALOG_FILE = fileURLToPath(new URL('./toolCatalog.json', import.meta.url));

/**
 * The contents of every compiled file of the MCP layer: any change of a tool changes it. (Contents,
 * not modification times: an npm install sets new times on every file.) A plain-JavaScript hash, as
 * loading node:crypto alone took longer than the rest of a cold start.
 */
export function serverFingerprint(version: string): string {
  const names = readdirSync(SERVER_DIR)
    .filter((n) => n.endsWith('.js'))
    .sort();
  const header = Buffer.from(`${version}\n${names.join('\n')}\n`);
  return wordHash(Buffer.concat([header, ...names.map((name) => readFileSync(`${SERVER_DIR}${name}`))]));
}

/**
 * FNV-1a over 32-bit words in two lanes (64 bits): enough to tell a rebuilt file, a quarter of the
 * steps of a byte-wise loop (~0.5 ms for the ~150 KB of the MCP layer).
 */
function wordHash(bytes: Buffer): string {
  const aligned = bytes.byteOffset % 4 === 0 ? bytes : Buffer.from(bytes);
  const words = new Int32Array(aligned.buffer, aligned.byteOffset, aligned.length >> 2);
  let low = 0x811c9dc5 ^ bytes.length;
  let high = 0x050c5d1f;
  for (let i = 0; i < words.length; i++) {
    low = Math.imul(low ^ words[i]!, 0x01000193);
    high = Math.imul(high ^ words[i]!, 0x01000193) ^ (low >>> 15);
  }
  for (let i = words.length * 4; i < bytes.length; i++) low = Math.imul(low ^ bytes[i]!, 0x01000193);
  return [high, low].map((n) => (n >>> 0).toString(16).padStart(8, '0')).join('');
}

export function loadCatalog(version: string): ToolCatalog | undefined {
  try {
    const catalog = JSON.parse(readFileSync(CATALOG_FILE, 'utf8')) as ToolCatalog;
    return catalog.fingerprint === serverFingerprint(version) ? catalog : undefined;
  } catch {
    return undefined;
  }
}

/** Answers what the catalog can answer: initialize, tools/list, ping. */
export function catalogResponder(catalog: ToolCatalog | undefined) {
  return (message: JSONRPCMessage): JSONRPCMessage | undefined => {
    if (!('method' in message) || !('id' in message)) return undefined;
    const { id, method } = message;
    if (method === 'ping') return { jsonrpc: '2.0', id, result: {} };
    if (!catalog) return undefined;
    if (method === 'tools/list') return { jsonrpc: '2.0', id, result: { tools: catalog.tools } };
    if (method === 'initialize') {
      const requested = (message.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
      if (typeof requested !== 'string') return undefined; // let the SDK answer a malformed request
      const protocolVersion = catalog.supportedProtocolVersions.includes(requested) ? requested : catalog.latestProtocolVersion;
      return { jsonrpc: '2.0', id, result: { protocolVersion, ...catalog.initialize } };
    }
    return undefined;
  };
}
