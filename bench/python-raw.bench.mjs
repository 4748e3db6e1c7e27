// The Python engine's request latency on the standard workflow (launch → first breakpoint →
// stack → locals → evaluate → step over → step into → continue to the next hit → stop), with
// and without the adapter's socket tuning. Median of RUNS runs, modes interleaved. Every launch
// starts the normal way (no ready debuggee: python-workflow.bench.mjs measures that), so the two
// modes differ only in the tuning.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';

process.env.DEBUGBRIDGE_READY_DEBUGGEE = '0';
const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.DEBUGBRIDGE_DIST ?? join(root, 'dist');
const { engine } = await import(join(dist, 'engines', 'python', 'index.js'));
const RUNS = Number(process.env.RUNS ?? 5);
const program = join(root, 'test', 'fixtures', 'python', 'orders.py');
const line = readFileSync(program, 'utf8').split('\n').findIndex((l) => l.includes('BP:compute')) + 1;

const availability = await engine.detect();
if (!availability.available) {
  console.log(`python: skipped (${availability.reason})`);
  process.exit(0);
}

async function workflow(socketTuning) {
  const stops = [];
  let wake = () => {};
  const instance = engine.create({
    emit: (event) => {
      if (event.type === 'stopped') stops.push(event);
      wake();
    },
    log: () => {},
  });
  const nextStop = async (n) => {
    while (stops.length < n) await new Promise((r) => (wake = r));
    return stops[n - 1];
  };
  const times = {};
  let mark = performance.now();
  const lap = (name) => {
    const now = performance.now();
    times[name] = now - mark;
    mark = now;
  };
  const started = mark;
  await instance.launch({
    program,
    args: [],
    cwd: dirname(program),
    env: {},
    stopOnEntry: false,
    breakpoints: [{ id: 1, file: program, line }],
    functionBreakpoints: [],
    exceptions: { filters: ['uncaught'] },
    options: { socketTuning },
  });
  lap('launch');
  const stop = await nextStop(1);
  lap('first stop');
  const { frames } = await instance.stackTrace(stop.threadId, 0, 20);
  lap('stack');
  const [locals] = await instance.scopes(frames[0].id);
  await instance.variables(locals.ref);
  lap('locals');
  await instance.evaluate('total + 1', frames[0].id, 'repl');
  lap('evaluate');
  await instance.step(stop.threadId, 'over');
  await nextStop(2);
  lap('step over');
  await instance.step(stop.threadId, 'into');
  await nextStop(3);
  lap('step into');
  await instance.continue(stop.threadId);
  await nextStop(4);
  lap('continue to hit');
  await instance.terminate();
  await instance.dispose();
  lap('stop');
  times.total = performance.now() - started;
  return times;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = { tuned: [], plain: [] };
await workflow(true); // warm the interpreter cache and the page cache
for (let i = 0; i < RUNS; i++) {
  results.tuned.push(await workflow(true));
  results.plain.push(await workflow(false));
}
const steps = Object.keys(results.tuned[0]);
console.log(`python (${availability.version}), median of ${RUNS}, ms`);
console.log(`${'step'.padEnd(16)} ${'tuned'.padStart(8)} ${'plain'.padStart(8)}`);
for (const step of steps) {
  const t = median(results.tuned.map((r) => r[step]));
  const p = median(results.plain.map((r) => r[step]));
  console.log(`${step.padEnd(16)} ${t.toFixed(1).padStart(8)} ${p.toFixed(1).padStart(8)}`);
}
