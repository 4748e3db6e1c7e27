// .NET: launch → exit of the hello fixture under the debugger (engine + native addon, from dist/)
// against the bare `dotnet hello.dll`, median of N runs each, reported as a ratio (target ≤ 1.5×).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.BENCH_RUNS ?? 7);
const { findDotnet } = await import(join(root, 'dist', 'engines', 'dotnet', 'runtimeEnv.js'));
const dotnet = findDotnet();
if (!dotnet) {
  console.log('dotnet: skipped (no .NET found)');
  process.exit(0);
}
const project = join(root, 'test', 'fixtures', 'dotnet', 'hello');
const dll = join(project, 'bin', 'Debug', 'hello.dll');
if (!existsSync(dll)) execFileSync(dotnet, ['build', project, '-c', 'Debug', '-nologo', '-v:q'], { stdio: 'inherit' });

const { engine } = await import(join(root, 'dist', 'engines', 'dotnet', 'index.js'));

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function bare() {
  const start = performance.now();
  const r = spawnSync(dotnet, [dll], { stdio: 'ignore' });
  if (r.status !== 7) throw new Error(`bare run exited with ${r.status}`);
  return performance.now() - start;
}

async function debugged() {
  const start = performance.now();
  let done;
  const finished = new Promise((resolve) => (done = resolve));
  let exitCode;
  const e = engine.create({
    emit: (ev) => {
      if (ev.type === 'exited') exitCode = ev.exitCode;
      if (ev.type === 'terminated') done();
    },
    log: () => {},
  });
  await e.launch({ program: dll, args: [], cwd: root, env: {}, stopOnEntry: false, breakpoints: [], functionBreakpoints: [], exceptions: { filters: ['uncaught'] }, options: {} });
  await finished;
  const elapsed = performance.now() - start;
  await e.dispose();
  if (exitCode !== 7) throw new Error(`debugged run exited with ${exitCode}`);
  return elapsed;
}

// Warm the file cache and the addon once, unmeasured.
bare();
await debugged();
const bareTimes = [];
const debugTimes = [];
// Sessions follow each other as an agent's do, not back to back: the engine readies the next
// debugger host when a session ends, and that takes a Node.js start (~0.1-0.2 s here).
const PAUSE_BETWEEN_SESSIONS_MS = 500;
for (let i = 0; i < runs; i++) {
  bareTimes.push(bare());
  await new Promise((resolve) => setTimeout(resolve, PAUSE_BETWEEN_SESSIONS_MS));
  debugTimes.push(await debugged());
}
const b = median(bareTimes);
const d = median(debugTimes);
const ratio = d / b;
console.log(`dotnet launch → exit (median of ${runs}): bare ${b.toFixed(0)} ms, under the debugger ${d.toFixed(0)} ms, ratio ${ratio.toFixed(2)}× (target ≤ 1.5×)`);
console.log(JSON.stringify({ bench: 'dotnet-launch-exit', runs, bareMs: Math.round(b), debuggedMs: Math.round(d), ratio: Number(ratio.toFixed(2)) }));
process.exit(0);
