// .NET breakpoint conditions in code the compiler rewrites, through the real MCP server, beside the
// bare program in the same run: the same loop (10,000 invoices summed) in the top-level async Main of
// the billing fixture, whose locals the Debug build hoists into the state machine (`<i>5__N`), and in
// a plain method; a condition false 9,999 times, then true. Target (issue 19): the async loop within
// bare + 5 s, as the synchronous one. Medians of BENCH_CONDITION_RUNS (default 3).
import { spawnSync } from 'node:child_process';
import { connect, dotnet, fixture, median, timed, verdict } from './lib/dotnetLab.mjs';

const rounds = Number(process.env.BENCH_CONDITION_ROUNDS ?? 10_000);
const runs = Number(process.env.BENCH_CONDITION_RUNS ?? 3);
const billing = fixture('billing');
const loops = {
  async: { mode: 'sum', file: billing.source('Program.cs'), line: billing.line('Program.cs', 'sum-async') },
  sync: { mode: 'sum-sync', file: billing.source('Ledger.cs'), line: billing.line('Ledger.cs', 'sum-sync') },
};
const { client, call } = await connect();

function bare(mode) {
  const t0 = performance.now();
  const r = spawnSync(dotnet, [billing.dll, mode, String(rounds)], { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`bare ${mode} exited with ${r.status}`);
  return performance.now() - t0;
}

async function conditional({ mode, file, line }) {
  const [ms, result] = await timed(() =>
    call('session_launch', {
      program: billing.dll,
      args: [mode, String(rounds)],
      breakpoints: [{ file, line, condition: `i == ${rounds - 1}` }],
      waitForStop: true,
      timeoutMs: 600_000,
    }),
  );
  if (result.status !== 'stopped') throw new Error(`${mode}: the conditional breakpoint did not stop: ${JSON.stringify(result)}`);
  const { diagnostics } = await call('session_diagnostics', { sessionId: result.sessionId });
  await call('session_stop', { sessionId: result.sessionId });
  return [ms, diagnostics.engine.details.conditions];
}

bare('sum');
const sample = { async: { bare: [], debugged: [] }, sync: { bare: [], debugged: [] } };
const decided = {};
for (let i = 0; i < runs; i++) {
  for (const [kind, loop] of Object.entries(loops)) {
    sample[kind].bare.push(bare(loop.mode));
    const [ms, conditions] = await conditional(loop);
    sample[kind].debugged.push(ms);
    decided[kind] = conditions;
  }
}
await client.close();

const figures = {};
console.log(`dotnet conditions in rewritten code through MCP (median of ${runs}, ${rounds} hits each):`);
for (const kind of ['async', 'sync']) {
  const b = median(sample[kind].bare);
  const d = median(sample[kind].debugged);
  const extra = (d - b) / 1000;
  figures[kind] = { bareMs: Math.round(b), debuggedMs: Math.round(d) };
  const what = kind === 'async' ? 'loop of an async Main (hoisted i)' : 'same loop in a plain method';
  const host = decided[kind];
  console.log(
    `  ${what}: stop after ${(d / 1000).toFixed(1)} s, bare ${(b / 1000).toFixed(2)} s: + ${extra.toFixed(1)} s, ${((d - b) / rounds).toFixed(2)} ms a hit` +
      ` (${host.evaluatedInHost} of ${rounds} hits evaluated in the host; target ≤ + 5 s: ${verdict(extra <= 5)})`,
  );
}
console.log(JSON.stringify({ bench: 'dotnet-async-conditions', runs, rounds, ...Object.fromEntries(Object.entries(figures).flatMap(([k, v]) => [[`${k}BareMs`, v.bareMs], [`${k}Ms`, v.debuggedMs]])) }));
process.exit(0);
