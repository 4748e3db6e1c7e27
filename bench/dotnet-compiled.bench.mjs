// .NET compiled evaluation (Roslyn in the server's worker, run in the program by func-eval) through the
// real MCP server, beside the hand-written evaluator's answer in the same run: a new server's first
// compiled evaluation (the worker process starts and Roslyn loads; its build is cached per machine,
// as live edit's is), later ones (a new expression each: compile, load, call) and a repeated one (the
// compiled method kept: one call). The ratio says what a lambda costs beside a plain member chain.
import { join } from 'node:path';
import { connect, dll, dotnet, line as lineIn, median, runs, source, timed } from './lib/dotnetLab.mjs';

const { ensureWorkerBuilt } = await import(join(import.meta.dirname, '..', 'dist', 'engines', 'dotnet', 'worker', 'workerBuild.js'));
const [build] = await timed(() => ensureWorkerBuilt(dotnet));

const { client, call } = await connect();
const { sessionId } = await call('session_launch', { program: dll, args: ['values'], breakpoints: [{ file: source('Values.cs'), line: lineIn('Values.cs', 'values') }], waitForStop: true });
const evaluate = async (expression) => {
  const [ms, r] = await timed(() => call('inspect_evaluate', { sessionId, expression }));
  if (r.value === undefined) throw new Error(`${expression}: ${JSON.stringify(r)}`);
  return ms;
};

const [first] = await timed(() => evaluate('list.Where(x => x > 15).Sum()'));
const fresh = [];
const cached = [];
const interpreted = [];
for (let i = 0; i < runs; i++) {
  fresh.push(await evaluate(`numbers.Count(x => x > ${i}) + list.Sum(x => x * ${i})`));
  cached.push(await evaluate('list.Where(x => x > 15).Sum()'));
  interpreted.push(await evaluate('list[1] + list[2] + numbers.Length'));
}
await call('session_stop', { sessionId });
await client.close();

const round = (ms) => Math.round(ms);
const base = median(interpreted);
console.log(`dotnet compiled evaluation through MCP (median of ${runs}; worker build ${round(build)} ms, 0 when cached):`);
console.log(`  first in a server (worker starts, Roslyn loads) ${round(first)} ms; a new expression ${round(median(fresh))} ms; a repeated one ${round(median(cached))} ms`);
console.log(`  the evaluator's own answer ${base.toFixed(1)} ms: a new compiled expression ×${(median(fresh) / base).toFixed(0)}, a repeated one ×${(median(cached) / base).toFixed(1)}`);
