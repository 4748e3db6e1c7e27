// Build step (scripts/bundle-cli.mjs, after bundling): dist/lazy.cjs's V8 code cache, written after
// a representative run so it holds the functions a server's start runs, not only the ones V8
// compiles before running (src/codeCache.ts loads it): the server's load as stdioServer.ts does it
// (engine registry, session manager, the MCP server with its tools), then initialize, tools/list
// and a tools/call through the SDK.
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheFileOf, runBundle } from '../dist/codeCache.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');

const LAZY = join(dist, 'lazy.cjs');
const { exports: lazy, script } = runBundle(LAZY, undefined);
const { EngineRegistry } = lazy['core-engineRegistry']();
lazy['core-readiness']();
const { SessionManager } = lazy['core-sessionManager']();
const { createServer } = lazy['server-createServer']();
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const manager = new SessionManager({ log: () => undefined, registry: new EngineRegistry() });
const server = createServer(manager, version, undefined);
const answers = new Map();
const transport = { start: async () => undefined, close: async () => undefined, send: async (message) => void answers.set(message.id, message) };
await server.connect(transport);
const request = async (id, method, params) => {
  transport.onmessage({ jsonrpc: '2.0', id, method, params });
  for (let i = 0; !answers.has(id); i++) {
    if (i > 1000) throw new Error(`write-code-cache: no answer to ${method}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  if (answers.get(id).error) throw new Error(`write-code-cache: ${method}: ${JSON.stringify(answers.get(id).error)}`);
};
await request(1, 'initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'build', version } });
transport.onmessage({ jsonrpc: '2.0', method: 'notifications/initialized' });
await request(2, 'tools/list', {});
await request(3, 'tools/call', { name: 'session_list', arguments: {} });
writeFileSync(cacheFileOf(LAZY), script.createCachedData());
// The server's timers and the engines' handles must not keep the build waiting.
process.exit(0);
