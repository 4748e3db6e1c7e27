// .NET launch → first breakpoint stop through the real MCP server, beside a bare run of the whole
// program to its exit in the same run: the billing fixture's `review` (top-level async Main, records,
// decimals), its breakpoint half-way through it, so the bare figure is if anything too long. Measured
// as a user meets it: the first launch of a fresh server (which loads the MCP layer and the .NET
// engine and boots the first debugger host), and a later launch in the same server (sessions not
// back to back: the agent reads each stop for 500 ms, the next host is readied meanwhile). With where the time goes, from
// session_diagnostics' start-up marks. Target (issue 19): first stop ≤ bare + 150 ms.
// Medians of BENCH_RUNS (default 7).
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { dotnet, fixture, McpTestClient, median, runs, timed, verdict } from './lib/dotnetLab.mjs';

const billing = fixture('billing');
const launch = {
  program: billing.dll,
  args: ['review'],
  breakpoints: [{ file: billing.source('Ledger.cs'), line: billing.line('Ledger.cs', 'review') }],
  waitForStop: true,
};

function bare() {
  const t0 = performance.now();
  const r = spawnSync(dotnet, [billing.dll, 'review'], { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`bare run exited with ${r.status}`);
  return performance.now() - t0;
}

const pause = () => new Promise((resolve) => setTimeout(resolve, 500));

async function firstStop(client) {
  const [ms, r] = await timed(() => client.call('session_launch', launch, { timeoutMs: 120_000 }));
  if (r.isError || r.structured.status !== 'stopped') throw new Error(`no first stop: ${r.text}`);
  const { sessionId } = r.structured;
  const d = await client.call('session_diagnostics', { sessionId });
  await pause(); // the agent reads the stop (the compiler worker is prestarted meanwhile)
  await client.call('session_stop', { sessionId });
  const { timings, engine } = d.structured.diagnostics;
  // The session's own marks: the stop reached it, and the stop the agent reads was built.
  return [ms, { ...engine.details.startup, sessionFirstStop: timings.firstStopMs, stopBuilt: timings.firstStopBuiltMs }];
}

const sample = { bare: [], fresh: [], freshFromSpawn: [], warm: [] };
const phases = { warm: [], fresh: [] };
bare();
for (let i = 0; i <= runs; i++) {
  const b = bare();
  const spawned = performance.now();
  const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-bench-')) } });
  const [fresh, freshStartup] = await firstStop(client);
  const freshFromSpawn = performance.now() - spawned;
  await pause();
  const [warm, startup] = await firstStop(client);
  await client.close();
  if (i === 0) continue; // file caches warmed
  sample.bare.push(b);
  sample.fresh.push(fresh);
  sample.freshFromSpawn.push(freshFromSpawn);
  sample.warm.push(warm);
  phases.warm.push(startup);
  phases.fresh.push(freshStartup);
}

const m = Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, Math.round(median(v))]));
/** Each moment's median over the runs, in the order of the first run's. */
const medians = (runs) => Object.fromEntries(Object.keys(runs[0] ?? {}).map((name) => [name, Math.round(median(runs.map((p) => p[name] ?? NaN)) * 10) / 10]));
const phase = medians(phases.warm);
const freshPhase = medians(phases.fresh);
const listed = (marks) => Object.entries(marks).map(([k, v]) => `${k} ${v}`).join(', ');
console.log(`dotnet launch → first breakpoint stop through MCP, beside a bare run of the whole program (median of ${runs}; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores):`);
console.log(`  bare \`dotnet billing.dll review\` to its exit ${m.bare} ms`);
console.log(`  a later launch in the same server ${m.warm} ms: bare + ${m.warm - m.bare} ms (target ≤ + 150: ${verdict(m.warm - m.bare <= 150)})`);
console.log(`  the first launch of a fresh server ${m.fresh} ms: bare + ${m.fresh - m.bare} ms (${m.freshFromSpawn} ms from starting the server process)`);
// The session's marks count from its run's start: what came before is the server loading its tools and the engine.
const before = (totals, runs) => Math.round(median(totals.map((ms, i) => ms - runs[i].stopBuilt)));
console.log(`    of which before the session started (the server loading its tools and the .NET engine): ${before(sample.fresh, phases.fresh)} ms; a later launch: ${before(sample.warm, phases.warm)} ms`);
console.log(`  where a later launch's time goes (ms from the launch): ${listed(phase)}`);
console.log(`  where the fresh server's first launch goes (ms from the launch): ${listed(freshPhase)}`);
console.log(JSON.stringify({ bench: 'dotnet-first-stop', runs, load: loadavg()[0], ...m, phases: phase, freshPhases: freshPhase }));
process.exit(0);
