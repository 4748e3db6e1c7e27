// .NET values through the real MCP server, beside the bare program in the same run: evaluating a
// local and a field, a property getter that runs in the program (func-eval), and a breakpoint whose
// condition is false 9,999 times and true on the 10,000th, beside one never true (the floor: the
// runtime's own stop and continue at each hit). Targets from issue 8: a local or field
// ≤ 10 ms; a func-eval getter ≤ 50 ms; the conditional stop within bare + 5 s (stretch + 2 s).
import { spawnSync } from 'node:child_process';
import { connect, dll, dotnet, line as lineIn, median, runs, source, timed, verdict } from './lib/dotnetLab.mjs';

const rounds = Number(process.env.BENCH_CONDITION_ROUNDS ?? 10_000);
const valuesCs = source('Values.cs');
const line = (marker) => lineIn('Values.cs', marker);
const { client, call } = await connect();

const stopped = await call('session_launch', { program: dll, args: ['values'], breakpoints: [{ file: valuesCs, line: line('values') }], waitForStop: true });
const sessionId = stopped.sessionId;
const sample = { local: [], field: [], getter: [] };
for (let i = 0; i <= runs; i++) {
  const [local] = await timed(() => call('inspect_evaluate', { sessionId, expression: 'number' }));
  const [field] = await timed(() => call('inspect_evaluate', { sessionId, expression: 'point.X' }));
  const [getter] = await timed(() => call('inspect_evaluate', { sessionId, expression: 'order.Total' }));
  if (i === 0) continue;
  sample.local.push(local);
  sample.field.push(field);
  sample.getter.push(getter);
}
await call('session_stop', { sessionId });

const t0 = performance.now();
spawnSync(dotnet, [dll, 'count', String(rounds)], { stdio: 'ignore' });
const bare = performance.now() - t0;
const [conditional, result] = await timed(() =>
  call('session_launch', {
    program: dll,
    args: ['count', String(rounds)],
    breakpoints: [{ file: valuesCs, line: line('count'), condition: `i == ${rounds - 1}` }],
    waitForStop: true,
    timeoutMs: 600_000,
  }),
);
if (result.status !== 'stopped') throw new Error(`the conditional breakpoint did not stop: ${JSON.stringify(result)}`);
await call('session_stop', { sessionId: result.sessionId });
// The floor: a condition that is never true reads nothing, so each hit costs only the runtime's own
// stop and continue (and the debugger thread's dispatch).
const [never, ended] = await timed(() =>
  call('session_launch', {
    program: dll,
    args: ['count', String(rounds)],
    breakpoints: [{ file: valuesCs, line: line('count'), condition: '1 == 2' }],
    waitForStop: true,
    timeoutMs: 600_000,
  }),
);
if (ended.status !== 'exited') throw new Error(`the never-true breakpoint stopped: ${JSON.stringify(ended)}`);
await client.close();

const m = Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, Math.round(median(v) * 10) / 10]));
const extra = (conditional - bare) / 1000;
const floor = (never - bare) / 1000;
console.log(`dotnet values through MCP (median of ${runs}):`);
console.log(`  evaluate a local ${m.local} ms, a field ${m.field} ms (target ≤ 10: ${verdict(Math.max(m.local, m.field) <= 10)}); a func-eval property getter ${m.getter} ms (target ≤ 50: ${verdict(m.getter <= 50)})`);
console.log(`  condition false ${rounds - 1} times then true: stop after ${(conditional / 1000).toFixed(1)} s, bare run ${(bare / 1000).toFixed(2)} s: + ${extra.toFixed(1)} s, ${((conditional - bare) / rounds).toFixed(2)} ms per hit (target ≤ + 5 s: ${verdict(extra <= 5)}; stretch ≤ + 2 s: ${verdict(extra <= 2)})`);
console.log(`  the runtime's floor, a condition never true: run to the end + ${floor.toFixed(1)} s, ${((never - bare) / rounds).toFixed(2)} ms per hit (the condition above costs ${(((conditional - never) / rounds) * 1000).toFixed(0)} µs a hit over it)`);
console.log(JSON.stringify({ bench: 'dotnet-values', runs, ...m, conditionalMs: Math.round(conditional), neverTrueMs: Math.round(never), bareMs: Math.round(bare), rounds }));
process.exit(0);
