// .NET async: the logical stack of an async method with 20 awaiting callers, read by the engine at
// each stop before anything is cached (the first read after a stop is the one that follows the task
// chain), beside the same relay run synchronously: a physical stack of 20 frames of the same method,
// read the same way in the same run. Then the hang report's pending tasks (a heap walk and the boxes
// read) on a program with six suspended chains. Target (issue 26): a 20-frame logical stack ≤ 30 ms.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.BENCH_RUNS ?? 7);
const { findDotnet } = await import(join(root, 'dist', 'engines', 'dotnet', 'runtimeEnv.js'));
const dotnet = findDotnet();
if (!dotnet) {
  console.log('dotnet-async: skipped (no .NET found)');
  process.exit(0);
}
const fixtures = join(root, 'test', 'fixtures', 'dotnet');
for (const name of ['shipping', 'warehouse']) execFileSync(dotnet, ['build', join(fixtures, name), '-c', 'Debug', '-nologo', '-v:q'], { stdio: 'ignore' });
const { engine } = await import(join(root, 'dist', 'engines', 'dotnet', 'index.js'));

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const round1 = (ms) => Math.round(ms * 10) / 10;
const lineOf = (file, marker) => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(`BP:${marker}`)) + 1;

/** An engine with the events it emitted, and a wait for the nth stop. */
function start() {
  const stops = [];
  let wake = () => {};
  const e = engine.create({
    emit: (event) => {
      if (event.type === 'stopped') stops.push(event);
      wake();
    },
    log: () => {},
  });
  const stop = async (nth) => {
    const deadline = Date.now() + 60_000;
    while (stops.length < nth) {
      if (Date.now() > deadline) throw new Error(`no stop #${nth}`);
      await new Promise((resolve) => {
        wake = resolve;
        setTimeout(resolve, 200);
      });
    }
    return stops[nth - 1];
  };
  return { e, stop };
}

function launchConfig(project, args, file, marker) {
  return {
    program: join(fixtures, project, 'bin', 'Debug', `${project}.dll`),
    args,
    cwd: root,
    env: {},
    stopOnEntry: false,
    breakpoints: file ? [{ file, line: lineOf(file, marker) }] : [],
    functionBreakpoints: [],
    exceptions: { filters: ['uncaught'] },
    options: {},
  };
}

/** Each stop of `rounds`: the time of the first stack read (nothing cached yet), and the frames it gave. */
async function stackReads(mode, marker) {
  const relay = join(fixtures, 'shipping', 'Relay.cs');
  const rounds = runs + 1;
  const { e, stop } = start();
  await e.launch(launchConfig('shipping', [mode, String(rounds)], relay, marker));
  const times = [];
  let frames = 0;
  for (let i = 1; i <= rounds; i++) {
    const { threadId } = await stop(i);
    const t0 = performance.now();
    const stack = await e.stackTrace(threadId, 0, 40);
    times.push(performance.now() - t0);
    frames = stack.totalFrames;
    await e.continue(threadId);
  }
  await e.dispose();
  return { first: times[0], rest: median(times.slice(1)), frames };
}

const logical = await stackReads('relay', 'last-depot');
const physical = await stackReads('relay-sync', 'last-depot-sync');

// The hang report's pending tasks: six chains suspended at their awaits, read while paused.
const hang = [];
for (let i = 0; i < Math.min(runs, 3); i++) {
  const { e, stop } = start();
  await e.launch(launchConfig('warehouse', ['delivery']));
  await new Promise((resolve) => setTimeout(resolve, 1500));
  await e.pause();
  await stop(1);
  const t0 = performance.now();
  const dumps = await e.threadDumps(12);
  const t1 = performance.now();
  const report = await e.pendingTasks(12);
  hang.push({ dumps: t1 - t0, tasks: performance.now() - t1, chains: report.tasks.length });
  await e.dispose();
}

const verdict = (ok) => (ok ? 'PASS' : 'MISS');
console.log(`dotnet async stacks through the engine (median of ${runs} stops after the first):`);
console.log(
  `  20 awaiting callers (${logical.frames} frames): first read after a stop ${round1(logical.rest)} ms (the run's first stop ${round1(logical.first)} ms); ` +
    `the same relay as 20 physical frames (${physical.frames}): ${round1(physical.rest)} ms (first ${round1(physical.first)} ms); ` +
    `the chain costs ${round1(logical.rest - physical.rest)} ms more (target: a 20-frame logical stack ≤ 30 ms: ${verdict(logical.rest <= 30)})`,
);
const h = { dumps: median(hang.map((x) => x.dumps)), tasks: median(hang.map((x) => x.tasks)) };
console.log(`  hang report of 6 pending chains: threads' stacks and waits with the heap walk ${round1(h.dumps)} ms, the chains after it ${round1(h.tasks)} ms (${hang[0]?.chains} chains read)`);
console.log(
  JSON.stringify({
    bench: 'dotnet-async',
    runs,
    logicalMs: round1(logical.rest),
    logicalFirstMs: round1(logical.first),
    physicalMs: round1(physical.rest),
    physicalFirstMs: round1(physical.first),
    logicalFrames: logical.frames,
    physicalFrames: physical.frames,
    hangDumpsMs: round1(h.dumps),
    hangTasksMs: round1(h.tasks),
  }),
);
process.exit(0);
