// The reload proxy: file change → the new server answering, against the server's own cold start
// (spawn → initialize answered → a tool call answered). Prints the medians and their difference.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'cli.js');
const server = join(root, 'test', 'fixtures', 'mcp-server', 'server.mjs');
const runs = Number(process.env.RELOAD_BENCH_RUNS ?? 7);
const debounceMs = 150;

const dir = mkdtempSync(join(tmpdir(), 'reload-bench-'));
const config = join(dir, 'tools.json');
const writeConfig = (version) => writeFileSync(config, JSON.stringify({ tools: ['greet'], version }));
writeConfig(0);

/** A child spoken to in JSON lines; `next(test)` resolves with the first frame that passes. */
function jsonLines(child) {
  let partial = '';
  const waiting = [];
  child.stdout.on('data', (chunk) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      const frame = JSON.parse(line);
      const i = waiting.findIndex((w) => w.test(frame));
      if (i !== -1) waiting.splice(i, 1)[0].resolve(frame);
    }
  });
  return {
    send: (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`),
    next: (test) => new Promise((resolve) => waiting.push({ test, resolve })),
  };
}

const initialize = { method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } };
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function coldStart() {
  const started = performance.now();
  const child = spawn(process.execPath, [server, config], { stdio: ['pipe', 'pipe', 'ignore'] });
  const rpc = jsonLines(child);
  rpc.send({ id: 1, ...initialize });
  await rpc.next((f) => f.id === 1);
  rpc.send({ method: 'notifications/initialized' });
  rpc.send({ id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
  await rpc.next((f) => f.id === 2);
  const ms = performance.now() - started;
  child.stdin.end();
  await new Promise((r) => child.once('exit', r));
  return ms;
}

/** Alternates a cold start with a reload, so both see the same load on a shared machine. */
async function measure() {
  const proxy = spawn(process.execPath, [cli, 'reload', '--watch', dir, '--debounce', String(debounceMs), '--', process.execPath, server, config], {
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const watching = new Promise((resolve) => proxy.stderr.on('data', (chunk) => String(chunk).includes('watching') && resolve()));
  const rpc = jsonLines(proxy);
  rpc.send({ id: 'init', ...initialize });
  await rpc.next((f) => f.id === 'init');
  rpc.send({ method: 'notifications/initialized' });
  await watching;
  const cold = [];
  const reload = [];
  for (let version = 1; version <= runs; version++) {
    cold.push(await coldStart());
    const changed = performance.now();
    writeConfig(version);
    await rpc.next((f) => f.method === 'notifications/tools/list_changed');
    rpc.send({ id: version, method: 'tools/call', params: { name: 'greet', arguments: {} } });
    const answer = await rpc.next((f) => f.id === version);
    if (answer.result?.content?.[0]?.text !== `greet v${version}`) throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
    reload.push(performance.now() - changed);
    await sleep(300);
  }
  proxy.stdin.end();
  await new Promise((r) => proxy.once('exit', r));
  return { cold, reload };
}

const { cold, reload } = await measure();
const share = median(reload.map((r, i) => r - cold[i]));
console.log(
  `reload: file change → new server answering ${median(reload).toFixed(0)} ms median; server cold start ${median(cold).toFixed(0)} ms median; ` +
    `proxy's share ${share.toFixed(0)} ms median (target ≤ 500; debounce ${debounceMs} ms, n=${runs})`,
);
