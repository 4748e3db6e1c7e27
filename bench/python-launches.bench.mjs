// Launch after launch of a program that ends at once, with a breakpoint on its only line, back
// to back through one MCP server: every launch must stop there (LAUNCHES of LAUNCHES, default
// 100), with a ready debuggee as the server starts by default, and (LAUNCHES_OFF, default 20)
// through a second server with ready debuggees off, for comparison. Back to back is the hardest
// case for a ready debuggee: the next one is still being prepared (at low priority) when the next
// launch comes, and that launch waits for the rest of it, pydevd's 0.1 s sleep on connect included.
// Reports hits, and launch → first stop (session_launch with waitForStop) per way of starting.
//
// Environment: LAUNCHES (100), LAUNCHES_OFF (20), BENCH_PYTHON (/usr/bin/python3),
// BENCH_THINK_MS (1500: the pause after tools/list, as an agent reads the tool list).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const PROGRAM = join(here, 'fixtures', 'tiny.py');
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';
const LAUNCHES = Number(process.env.LAUNCHES ?? 100);
const LAUNCHES_OFF = Number(process.env.LAUNCHES_OFF ?? 20);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 1500);

const { McpTestClient } = await import(pathToFileURL(join(here, '..', 'dist', 'demo', 'mcpClient.js')).href);
const quantile = (xs, q) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length ? v[Math.min(v.length - 1, Math.floor(q * v.length))] : undefined;
};
const fmt = (x) => (x === undefined ? '—' : x.toFixed(1));

async function server(ready) {
  const stateDir = mkdtempSync(join(tmpdir(), 'dbb-bench-launches-'));
  const client = await McpTestClient.start({ env: { DEBUGBRIDGE_PYTHON: PYTHON, DEBUGBRIDGE_STATE_DIR: stateDir, DEBUGBRIDGE_READY_DEBUGGEE: ready ? '1' : '0' } });
  await client.client.listTools();
  return {
    runs: [],
    /** `count` launches back to back. */
    async launches(count) {
      for (let i = 0; i < count; i++) {
        const t = performance.now();
        const r = await client.call('session_launch', { program: PROGRAM, breakpoints: [{ file: PROGRAM, line: 1 }], waitForStop: true, timeoutMs: 30_000 });
        const ms = performance.now() - t;
        const sessionId = r.structured.sessionId;
        const hit = !r.isError && r.structured.stop?.frame?.line === 1;
        let way = 'failed';
        if (sessionId) {
          way = (await client.call('session_diagnostics', { sessionId })).structured.diagnostics?.engine?.details?.start ?? '?';
          await client.call('session_stop', { sessionId });
        }
        if (!hit) console.log(`  launch ${this.runs.length + 1}: no stop on line 1: ${r.text.slice(0, 300)}`);
        this.runs.push({ ms, hit, way });
      }
    },
    async close() {
      await client.close();
      rmSync(stateDir, { recursive: true, force: true });
    },
  };
}

function report(name, runs) {
  const hits = runs.filter((r) => r.hit).length;
  console.log(`${name}: ${hits} of ${runs.length} launches stopped on the breakpoint`);
  for (const way of [...new Set(runs.map((r) => r.way))]) {
    const ms = runs.filter((r) => r.way === way).map((r) => r.ms);
    console.log(`  ${way} ×${ms.length}: launch → first stop median ${fmt(quantile(ms, 0.5))} ms, p90 ${fmt(quantile(ms, 0.9))}, max ${fmt(Math.max(...ms))}`);
  }
  return hits === runs.length;
}

console.log(`Python: ${LAUNCHES} launches of bench/fixtures/tiny.py back to back, breakpoint on its only line (${PYTHON})`);
// Both servers live side by side; their launches come in alternating blocks (10 : 2 by default),
// so both see the same load on the machine.
const on = await server(true);
const off = await server(false);
await new Promise((r) => setTimeout(r, THINK_MS));
const BLOCK = 10;
const offBlock = Math.max(1, Math.round((BLOCK * LAUNCHES_OFF) / Math.max(1, LAUNCHES)));
try {
  while (on.runs.length < LAUNCHES || off.runs.length < LAUNCHES_OFF) {
    await on.launches(Math.min(BLOCK, LAUNCHES - on.runs.length));
    await off.launches(Math.min(offBlock, LAUNCHES_OFF - off.runs.length));
  }
} finally {
  await on.close();
  await off.close();
}
const ok = report('ready debuggees on', on.runs);
const okOff = LAUNCHES_OFF > 0 ? report('ready debuggees off', off.runs) : true;
process.exit(ok && okOff ? 0 : 1);
