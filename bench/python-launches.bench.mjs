// Launch after launch of a program that ends at once, with a breakpoint on its only line, back
// to back through one MCP server: every launch must stop there (LAUNCHES of LAUNCHES, default
// 100), with a ready debuggee as the server starts by default, then (LAUNCHES_OFF, default 20)
// with ready debuggees off for comparison. Back to back is the hardest case for a ready debuggee:
// the next one is still being prepared when the next launch comes, and that launch waits for it.
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

async function launches(count, ready) {
  const stateDir = mkdtempSync(join(tmpdir(), 'dbb-bench-launches-'));
  const client = await McpTestClient.start({ env: { DEBUGBRIDGE_PYTHON: PYTHON, DEBUGBRIDGE_STATE_DIR: stateDir, DEBUGBRIDGE_READY_DEBUGGEE: ready ? '1' : '0' } });
  const runs = [];
  try {
    await client.client.listTools();
    await new Promise((r) => setTimeout(r, THINK_MS));
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
      if (!hit) console.log(`  launch ${i + 1}: no stop on line 1: ${r.text.slice(0, 300)}`);
      runs.push({ ms, hit, way });
    }
  } finally {
    await client.close();
    rmSync(stateDir, { recursive: true, force: true });
  }
  return runs;
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
const ok = report('ready debuggees on', await launches(LAUNCHES, true));
const okOff = LAUNCHES_OFF > 0 ? report('ready debuggees off', await launches(LAUNCHES_OFF, false)) : true;
process.exit(ok && okOff ? 0 : 1);
