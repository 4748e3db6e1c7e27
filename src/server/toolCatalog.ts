/**
 * The tool catalog: what `initialize` and `tools/list` answer, written at build time so a starting
 * server can answer both before it has loaded the MCP SDK and zod (which take most of a cold start).
 * A copy of the compiled server files it was written from guards against a stale catalog: when they
 * differ, the server simply answers through the SDK.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface ToolCatalog {
  supportedProtocolVersions: string[];
  latestProtocolVersion: string;
  initialize: { capabilities: Record<string, unknown>; serverInfo: { name: string; version: string }; instructions?: string };
  tools: unknown[];
}

const SERVER_DIR = fileURLToPath(new URL('.', import.meta.url));
export const CATALOG_FILE = fileURLToPath(new URL('./toolCatalog.json', import.meta.url));

/** The compiled MCP layer the catalog was written from, byte for byte (beside the catalog). */
export const SOURCES_FILE = fileURLToPath(new URL('./toolCatalog.sources', import.meta.url));

/**
 * The version and the contents of every compiled file of the MCP layer: any change of a tool changes
 * them. (Contents, not modification times: an npm install sets new times on every file.) Compared
 * with the build's copy by memcmp: a hash of them in JavaScript, ~40,000 steps of one loop, had V8
 * compile that loop with TurboFan at every start (~4 MiB more RSS, and slower than the compare);
 * loading node:crypto took longer than the rest of a cold start.
 */
export function serverSources(version: string): Buffer {
  const names = readdirSync(SERVER_DIR)
    .filter((n) => n.endsWith('.js'))
    .sort();
  const header = Buffer.from(`${version}\n${names.join('\n')}\n`);
  return Buffer.concat([header, ...names.map((name) => readFileSync(`${SERVER_DIR}${name}`))]);
}

export function loadCatalog(version: string): ToolCatalog | undefined {
  try {
    const catalog = JSON.parse(readFileSync(CATALOG_FILE, 'utf8')) as ToolCatalog;
    return serverSources(version).equals(readFileSync(SOURCES_FILE)) ? catalog : undefined;
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
