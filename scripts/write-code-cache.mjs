// Build step (scripts/bundle-cli.mjs, after bundling): each code-cached bundle's V8 code cache,
// written after a representative run so it holds the functions a start runs, not only the ones V8
// compiles before running (src/codeCache.ts loads it).
//
// - dist/lazy.cjs: the server's load as stdioServer.ts does it (engine registry, session manager,
//   the MCP server with its tools), then initialize, tools/list and a tools/call through the SDK.
// - dist/engines/dotnet/host/hostMain.bundle.cjs: the host's boot, in a child process with the IPC
//   channel the host expects (the addon loaded, the debugger created), nothing launched.
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cacheFileOf, runBundle } from '../dist/codeCache.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const HOST = join(dist, 'engines', 'dotnet', 'host', 'hostMain.bundle.cjs');

if (process.argv[2] === '--host') {
  const { script } = runBundle(HOST, undefined);
  writeFileSync(cacheFileOf(HOST), script.createCachedData());
  process.exit(0);
}

const LAZY = join(dist, 'lazy.cjs');
const { exports: lazy, script } = runBundle(LAZY, undefined);
const [{ EngineRegistry }, { SessionManager }, { createServer }] = ['core-engineRegistry', 'core-readiness', 'core-sessionManager', 'server-createServer']
  .map((name) => lazy[name]())
  .filter((_, i) => i !== 1);
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

const host = fork(fileURLToPath(import.meta.url), ['--host'], { stdio: 'inherit' });
const code = await new Promise((resolve) => host.on('exit', resolve));
if (code !== 0) throw new Error(`write-code-cache: the .NET host's run ended with ${code}`);
process.exit(0);
