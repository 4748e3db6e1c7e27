// .NET through the real MCP server (node dist/cli.js over stdio), beside the bare program in the same
// run: launch → first breakpoint stop vs a bare `dotnet lab.dll` run, step over / into / out, and the
// stack of a 27-frame recursion. Medians of BENCH_RUNS (default 7). Targets from issue 7: first stop
// within bare + 250 ms; steps ≤ 30 ms; a 20-frame stack ≤ 15 ms.
import { spawnSync } from 'node:child_process';
import { connect, dll, dotnet, line, median, runs, source, timed, verdict } from './lib/dotnetLab.mjs';

const programCs = source('Program.cs');
const recursionCs = source('Recursion.cs');

function bare() {
  const t0 = performance.now();
  const r = spawnSync(dotnet, [dll, 'loop'], { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`bare run exited with ${r.status}`);
  return performance.now() - t0;
}

const { client, call } = await connect();
const sample = { bare: [], firstStop: [], over: [], into: [], out: [], stack20: [] };

// Sessions follow each other as an agent's do: the engine readies the next debugger host meanwhile.
const pause = () => new Promise((resolve) => setTimeout(resolve, 500));
bare();
for (let i = 0; i <= runs; i++) {
  const warmup = i === 0;
  const b = bare();
  await pause();
  const [first, launched] = await timed(() =>
    call('session_launch', { program: dll, args: ['loop'], breakpoints: [{ file: programCs, line: line('Program.cs', 'loop-body') }], waitForStop: true }),
  );
  if (launched.status !== 'stopped') throw new Error(`no first stop: ${JSON.stringify(launched)}`);
  const { sessionId } = launched;
  const [into] = await timed(() => call('execution_step', { sessionId, kind: 'into' }));
  const [out] = await timed(() => call('execution_step', { sessionId, kind: 'out' }));
  const [over] = await timed(() => call('execution_step', { sessionId, kind: 'over' }));
  await call('session_stop', { sessionId });
  await pause();
  const deep = await call('session_launch', { program: dll, args: ['deep'], breakpoints: [{ file: recursionCs, line: line('Recursion.cs', 'deep') }], waitForStop: true });
  const [stack, frames] = await timed(() => call('inspect_stack', { sessionId: deep.sessionId, levels: 20 }));
  if (frames.frames.length !== 20) throw new Error(`expected 20 frames, got ${frames.frames.length}`);
  await call('session_stop', { sessionId: deep.sessionId });
  if (warmup) continue;
  sample.bare.push(b);
  sample.firstStop.push(first);
  sample.into.push(into);
  sample.out.push(out);
  sample.over.push(over);
  sample.stack20.push(stack);
}
await client.close();

const m = Object.fromEntries(Object.entries(sample).map(([k, v]) => [k, Math.round(median(v) * 10) / 10]));
console.log(`dotnet workflow through MCP (median of ${runs}):`);
console.log(`  bare \`dotnet lab.dll\` run ${m.bare} ms; launch → first breakpoint stop ${m.firstStop} ms (bare + ${Math.round(m.firstStop - m.bare)} ms, target ≤ + 250: ${verdict(m.firstStop - m.bare <= 250)})`);
console.log(`  step over ${m.over} ms, into ${m.into} ms, out ${m.out} ms (target ≤ 30: ${verdict(Math.max(m.over, m.into, m.out) <= 30)})`);
console.log(`  stack of 20 frames ${m.stack20} ms (target ≤ 15: ${verdict(m.stack20 <= 15)})`);
console.log(JSON.stringify({ bench: 'dotnet-workflow', runs, ...m }));
process.exit(0);
