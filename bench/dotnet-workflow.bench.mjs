// .NET through the real MCP server (node dist/cli.js over stdio), beside the bare program in the same
// run: launch → first breakpoint stop vs a bare `dotnet lab.dll` run, step over / into / out, and the
// stack of a 27-frame recursion. Medians of BENCH_RUNS (default 7). Targets from issue 7: first stop
// within bare + 250 ms; steps ≤ 30 ms; a 20-frame stack ≤ 15 ms.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.BENCH_RUNS ?? 7);
const { findDotnet } = await import(join(root, 'dist', 'engines', 'dotnet', 'runtimeEnv.js'));
const { McpTestClient } = await import(join(root, 'dist', 'demo', 'mcpClient.js'));
const dotnet = findDotnet();
if (!dotnet) {
  console.log('dotnet: skipped (no .NET found)');
  process.exit(0);
}
const fixtures = join(root, 'test', 'fixtures', 'dotnet');
execFileSync(dotnet, ['build', join(fixtures, 'lab'), '-c', 'Debug', '-nologo', '-v:q'], { stdio: 'ignore' });
const dll = join(fixtures, 'lab', 'bin', 'Debug', 'lab.dll');
const line = (file, marker) => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(`BP:${marker}`)) + 1;
const programCs = join(fixtures, 'lab', 'Program.cs');
const recursionCs = join(fixtures, 'lab', 'Recursion.cs');

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const timed = async (work) => {
  const t0 = performance.now();
  const result = await work();
  return [performance.now() - t0, result];
};

function bare() {
  const t0 = performance.now();
  const r = spawnSync(dotnet, [dll, 'loop'], { stdio: 'ignore' });
  if (r.status !== 0) throw new Error(`bare run exited with ${r.status}`);
  return performance.now() - t0;
}

const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-bench-')) } });
const call = async (tool, args) => {
  const r = await client.call(tool, args);
  if (r.isError) throw new Error(`${tool}: ${r.text}`);
  return r.structured;
};
const sample = { bare: [], firstStop: [], over: [], into: [], out: [], stack20: [] };

// Sessions follow each other as an agent's do: the engine readies the next debugger host meanwhile.
const pause = () => new Promise((resolve) => setTimeout(resolve, 500));
bare();
for (let i = 0; i <= runs; i++) {
  const warmup = i === 0;
  const b = bare();
  await pause();
  const [first, launched] = await timed(() =>
    call('session_launch', { program: dll, args: ['loop'], breakpoints: [{ file: programCs, line: line(programCs, 'loop-body') }], waitForStop: true }),
  );
  if (launched.status !== 'stopped') throw new Error(`no first stop: ${JSON.stringify(launched)}`);
  const { sessionId } = launched;
  const [into] = await timed(() => call('execution_step', { sessionId, kind: 'into' }));
  const [out] = await timed(() => call('execution_step', { sessionId, kind: 'out' }));
  const [over] = await timed(() => call('execution_step', { sessionId, kind: 'over' }));
  await call('session_stop', { sessionId });
  await pause();
  const deep = await call('session_launch', { program: dll, args: ['deep'], breakpoints: [{ file: recursionCs, line: line(recursionCs, 'deep') }], waitForStop: true });
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
const verdict = (ok) => (ok ? 'PASS' : 'MISS');
console.log(`dotnet workflow through MCP (median of ${runs}):`);
console.log(`  bare \`dotnet lab.dll\` run ${m.bare} ms; launch → first breakpoint stop ${m.firstStop} ms (bare + ${Math.round(m.firstStop - m.bare)} ms, target ≤ + 250: ${verdict(m.firstStop - m.bare <= 250)})`);
console.log(`  step over ${m.over} ms, into ${m.into} ms, out ${m.out} ms (target ≤ 30: ${verdict(Math.max(m.over, m.into, m.out) <= 30)})`);
console.log(`  stack of 20 frames ${m.stack20} ms (target ≤ 15: ${verdict(m.stack20 <= 15)})`);
console.log(JSON.stringify({ bench: 'dotnet-workflow', runs, ...m }));
process.exit(0);
