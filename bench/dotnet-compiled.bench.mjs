// .NET compiled evaluation (Roslyn in the server's worker, run in the program by func-eval) through the
// real MCP server, beside the hand-written evaluator's answer in the same run: a new server's first
// compiled evaluation, asked right after the first stop (the worker started at that stop) and in a
// server that starts the worker on first need (the process starts and Roslyn loads; its build is
// cached per machine, as live edit's is), later ones (a new expression each: compile, load, call) and a repeated one (the
// compiled method kept: one call). The ratio says what a lambda costs beside a plain member chain.
// Then a second program in the same server (the worker warm: its first compiled evaluation compiles
// and loads into a new program), and a lambda condition on a breakpoint hit 1,000 times in the ledger
// fixture beside the same launch stopping after the loop without a condition, and the bare program.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { connect, dll, dotnet, fixture, line as lineIn, median, runs, source, timed } from './lib/dotnetLab.mjs';

const { ensureWorkerBuilt } = await import(join(import.meta.dirname, '..', 'dist', 'engines', 'dotnet', 'worker', 'workerBuild.js'));
const [build] = await timed(() => ensureWorkerBuilt(dotnet));

// A new server whose worker starts at the first stop (the default), evaluating at once: what is left
// of the warm-up when the agent asks right after the stop.
/** A first evaluation as a user meets it: asked again while the answer is that Roslyn is still starting (TIMEOUT after 30 s). */
const firstValue = async (client, sessionId, expression) => {
  for (;;) {
    const r = await client.call('inspect_evaluate', { sessionId, expression }, { timeoutMs: 600_000 });
    if (!r.isError) return r.structured;
    if (!r.text.startsWith('TIMEOUT')) throw new Error(`${expression}: ${r.text}`);
  }
};
const launchValues = (call) => call('session_launch', { program: dll, args: ['values'], breakpoints: [{ file: source('Values.cs'), line: lineIn('Values.cs', 'values') }], waitForStop: true });
const prestarted = await (async () => {
  const { client, call } = await connect();
  const { sessionId } = await launchValues(call);
  const [ms, r] = await timed(() => firstValue(client, sessionId, 'list.Where(x => x > 15).Sum()'));
  if (r.value === undefined) throw new Error(JSON.stringify(r));
  await call('session_stop', { sessionId });
  await client.close();
  return ms;
})();

// The rest in a server that starts the worker on first need only: its first compiled evaluation is the cold one.
const { client, call } = await connect({ DEBUGBRIDGE_COMPILER_PRESTART: '0' });
const { sessionId } = await launchValues(call);
const evaluate = async (expression) => {
  const [ms, r] = await timed(() => call('inspect_evaluate', { sessionId, expression }));
  if (r.value === undefined) throw new Error(`${expression}: ${JSON.stringify(r)}`);
  return ms;
};

const [first] = await timed(() => firstValue(client, sessionId, 'list.Where(x => x > 15).Sum()'));
const fresh = [];
const cached = [];
const interpreted = [];
for (let i = 0; i < runs; i++) {
  fresh.push(await evaluate(`numbers.Count(x => x > ${i}) + list.Sum(x => x * ${i})`));
  cached.push(await evaluate('list.Where(x => x > 15).Sum()'));
  interpreted.push(await evaluate('list[1] + list[2] + numbers.Length'));
}
await call('session_stop', { sessionId });

// The worker warm: a new program's first compiled evaluation.
const warm = [];
for (let i = 0; i < Math.min(runs, 3); i++) {
  const second = await launchValues(call);
  const [ms, r] = await timed(() => call('inspect_evaluate', { sessionId: second.sessionId, expression: 'list.Where(x => x > 15).Sum()' }));
  if (r.value === undefined) throw new Error(JSON.stringify(r));
  warm.push(ms);
  await call('session_stop', { sessionId: second.sessionId });
}

// A lambda condition false 999 times, then true (the 1,000th entry), beside the same launch to a stop
// after the loop and the bare program.
const ledger = fixture('ledger');
const hits = 1000;
const lambda = 'entries.Take(entry.Id).Count(e => e.Account == "cash") == 333 && entry.Amount == 0m';
const toStop = async (marker, condition) => {
  const [ms, r] = await timed(() =>
    call('session_launch', { program: ledger.dll, breakpoints: [{ file: ledger.source('Book.cs'), line: ledger.line('Book.cs', marker), ...(condition && { condition }) }], waitForStop: true, timeoutMs: 600_000 }),
  );
  if (r.status !== 'stopped') throw new Error(`${marker}: no stop: ${JSON.stringify(r)}`);
  await call('session_stop', { sessionId: r.sessionId });
  return ms;
};
const conditioned = [];
const unconditioned = [];
const bare = [];
for (let i = 0; i < Math.min(runs, 3); i++) {
  const t0 = performance.now();
  if (spawnSync(dotnet, [ledger.dll], { stdio: 'ignore' }).status !== 0) throw new Error('the ledger failed');
  bare.push(performance.now() - t0);
  unconditioned.push(await toStop('summary'));
  conditioned.push(await toStop('post', lambda));
}
await client.close();

const round = (ms) => Math.round(ms);
const base = median(interpreted);
console.log(`dotnet compiled evaluation through MCP (median of ${runs}; worker build ${round(build)} ms, 0 when cached):`);
console.log(`  first in a server (worker starts on this need, Roslyn loads) ${round(first)} ms; a new expression ${round(median(fresh))} ms; a repeated one ${round(median(cached))} ms`);
console.log(`  first in a server whose worker started at the first stop, asked at once ${round(prestarted)} ms: ×${(prestarted / first).toFixed(2)} of the cold one`);
console.log(`  the evaluator's own answer ${base.toFixed(1)} ms: a new compiled expression ×${(median(fresh) / base).toFixed(0)}, a repeated one ×${(median(cached) / base).toFixed(1)}`);
console.log(`  first in a new program, the worker warm ${round(median(warm))} ms (median of ${warm.length}): ×${(median(warm) / first).toFixed(2)} of the cold one`);
const perHit = (median(conditioned) - median(unconditioned)) / hits;
console.log(
  `  a lambda condition on a breakpoint hit ${hits} times: to the stop ${round(median(conditioned))} ms, the same launch to a stop after the loop ${round(median(unconditioned))} ms, the bare program ${round(median(bare))} ms (median of ${bare.length}): ${perHit.toFixed(1)} ms a hit, ×${(perHit / base).toFixed(1)} an interpreted evaluation`,
);
