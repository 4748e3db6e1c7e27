/**
 * The tool catalog: what `initialize` and `tools/list` answer, written at build time so a starting
 * server can answer both before it has loaded the MCP SDK and zod (which take most of a cold start).
 * A fingerprint of the compiled server files guards against a stale catalog: when it does not match,
 * the server simply answers through the SDK.
 */
import { createHash } from 'node:crypto';
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
 * not modification times: an npm install sets new times on every file. Hashing ~250 KB costs ~1 ms.)
 */
export function serverFingerprint(version: string): string {
  const hash = createHash('sha256').update(version);
  for (const name of readdirSync(SERVER_DIR).filter((n) => n.endsWith('.js')).sort()) {
    hash.update(`${name}\n`).update(readFileSync(`${SERVER_DIR}${name}`));
  }
  return hash.digest('hex').slice(0, 16);
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
