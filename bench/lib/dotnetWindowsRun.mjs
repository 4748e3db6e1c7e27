// The Windows side of bench/dotnet-windows.bench.mjs, run by Windows node.exe under Wine: an MCP
// client on Windows starts the server (node.exe dist\cli.js) over stdio pipes, as a Windows agent's
// client does, and times what an agent meets against the lab fixture (published self-contained for
// win-x64); the bare runs of the same program start from the same Windows process, so both sides pay
// Wine's process start alike.
//   node.exe dotnetWindowsRun.mjs <lab folder> <Program.cs> <Values.cs> <runs> <rounds>
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { McpTestClient } from '../../dist/demo/mcpClient.js';

const [labDir, programCs, valuesCs, runsArg, roundsArg] = process.argv.slice(2);
const runs = Number(runsArg);
const rounds = Number(roundsArg);
const lab = join(labDir, 'lab.exe');
const line = (file, marker) => readFileSync(file, 'utf8').split('\n').findIndex((l) => new RegExp(`BP:${marker}(\\s|$)`).test(l)) + 1;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round1 = (ms) => Math.round(ms * 10) / 10;
async function timed(work) {
  const t0 = performance.now();
  const result = await work();
  return [performance.now() - t0, result];
}
const pause = () => new Promise((resolve) => setTimeout(resolve, 500));

function bare(args, expected) {
  const t0 = performance.now();
  const r = spawnSync(lab, args, { stdio: 'ignore' });
  if (r.status !== expected) throw new Error(`bare lab.exe ${args.join(' ')} exited with ${r.status}`);
  return performance.now() - t0;
}

async function connect() {
  const client = await McpTestClient.start();
  const call = async (tool, args) => {
    const r = await client.call(tool, args, { timeoutMs: 3_000_000 });
    if (r.isError) throw new Error(`${tool}: ${r.text}`);
    return r.structured;
  };
  return { client, call };
}

const loopStop = { program: lab, args: ['loop'], breakpoints: [{ file: programCs, line: line(programCs, 'loop-body') }], waitForStop: true, timeoutMs: 120_000 };
const sample = { bare: [], fresh: [], freshFromSpawn: [], warm: [], over: [], into: [], out: [], local: [], field: [], getter: [] };
bare(['loop'], 0);
for (let i = 0; i <= runs; i++) {
  const b = bare(['loop'], 0);
  const spawned = performance.now();
  const { client, call } = await connect();
  const [fresh, first] = await timed(() => call('session_launch', loopStop));
  const freshFromSpawn = performance.now() - spawned;
  if (first.status !== 'stopped') throw new Error(`no first stop: ${JSON.stringify(first)}`);
  await call('session_stop', { sessionId: first.sessionId });
  await pause();
  const [warm, second] = await timed(() => call('session_launch', loopStop));
  const { sessionId } = second;
  const [into] = await timed(() => call('execution_step', { sessionId, kind: 'into' }));
  const [out] = await timed(() => call('execution_step', { sessionId, kind: 'out' }));
  const [over] = await timed(() => call('execution_step', { sessionId, kind: 'over' }));
  await call('session_stop', { sessionId });
  await pause();
  const values = await call('session_launch', { program: lab, args: ['values'], breakpoints: [{ file: valuesCs, line: line(valuesCs, 'values') }], waitForStop: true, timeoutMs: 120_000 });
  const [local] = await timed(() => call('inspect_evaluate', { sessionId: values.sessionId, expression: 'number' }));
  const [field] = await timed(() => call('inspect_evaluate', { sessionId: values.sessionId, expression: 'point.X' }));
  const [getter] = await timed(() => call('inspect_evaluate', { sessionId: values.sessionId, expression: 'order.Total' }));
  await call('session_stop', { sessionId: values.sessionId });
  await client.close();
  if (i === 0) continue; // file caches and Wine's own start-up warmed
  for (const [k, v] of Object.entries({ bare: b, fresh, freshFromSpawn, warm, over, into, out, local, field, getter })) sample[k].push(v);
}

const m = Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, round1(median(v))]));
const ratio = (a, b) => (a / b).toFixed(2);
console.log(`dotnet on Windows x64 under Wine, through MCP with the server under Windows node.exe (median of ${runs}):`);
console.log(`  bare \`lab.exe loop\` to its exit ${Math.round(m.bare)} ms`);
console.log(`  launch → first breakpoint stop: a fresh server ${Math.round(m.fresh)} ms (${ratio(m.fresh, m.bare)}× bare; ${Math.round(m.freshFromSpawn)} ms from starting the server), a later launch ${Math.round(m.warm)} ms (bare + ${Math.round(m.warm - m.bare)} ms, ${ratio(m.warm, m.bare)}×)`);
console.log(`  step into ${m.into} ms, out ${m.out} ms, over ${m.over} ms`);
console.log(`  evaluate a local ${m.local} ms, a field ${m.field} ms, a func-eval property getter ${m.getter} ms`);

// Hits of a breakpoint whose condition is never true, beside the bare run of the same loop: each hit
// is the runtime's stop, the condition read, and the continue (the one true on the last hit costs
// the same plus one stop, so it is not run again here: Wine makes each hit slow).
const { client, call } = await connect();
const bareCount = bare(['count', String(rounds)], 0);
const [never, ended] = await timed(() =>
  call('session_launch', {
    program: lab,
    args: ['count', String(rounds)],
    breakpoints: [{ file: valuesCs, line: line(valuesCs, 'count'), condition: '1 == 2' }],
    waitForStop: true,
    timeoutMs: 3_000_000,
  }),
);
if (ended.status !== 'exited') throw new Error(`the never-true breakpoint stopped: ${JSON.stringify(ended)}`);
await client.close();
console.log(`  ${rounds} hits of a condition never true: ${(never / 1000).toFixed(1)} s to the end, bare \`lab.exe count ${rounds}\` ${(bareCount / 1000).toFixed(2)} s: + ${((never - bareCount) / rounds).toFixed(2)} ms a hit (${ratio(never, bareCount)}×)`);
console.log(JSON.stringify({ bench: 'dotnet-windows', runs, ...m, rounds, bareCountMs: Math.round(bareCount), neverTrueMs: Math.round(never) }));
process.exit(0);
