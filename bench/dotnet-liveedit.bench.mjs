// .NET live edit through the real MCP server: the time of session_apply_changes for a one-method edit
// while stopped in that method, beside the alternative an agent has without it (rebuild the project
// and run it again to the same breakpoint). The worker's build (once per machine, into an empty
// cache here), a cold apply (a new server: the worker process starts and Roslyn loads) and warm ones
// (median). Target from issue 23: warm ≤ 1 s.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect, dotnet, median, runs, timed, verdict } from './lib/dotnetLab.mjs';

const root = join(import.meta.dirname, '..');
const fixtures = join(root, 'test', 'fixtures', 'dotnet');
const work = mkdtempSync(join(tmpdir(), 'dbb-bench-liveedit-'));
const project = join(work, 'liveedit');
cpSync(join(fixtures, 'liveedit'), project, { recursive: true, filter: (src) => !/[\\/](bin|obj)$/.test(src) });
for (const shared of ['Directory.Build.props', 'nuget.config']) cpSync(join(fixtures, shared), join(work, shared));
const build = () => execFileSync(dotnet, ['build', project, '-c', 'Debug', '-nologo', '-v:q'], { stdio: 'ignore' });
build();
const dll = join(project, 'bin', 'Debug', 'liveedit.dll');
const pricing = join(project, 'Pricing.cs');
const original = readFileSync(pricing, 'utf8');
const buggy = 'total += item.UnitPrice;';
const fixed = 'total += item.UnitPrice * item.Quantity;';
const line = original.split('\n').findIndex((l) => l.includes('BP:add')) + 1;
const breakpoints = [{ file: pricing, line }];

/** One server; its first apply, then `warm` more (the edit toggled each time). */
async function applies(env, warm) {
  const { client, call } = await connect(env);
  const { sessionId } = await call('session_launch', { program: dll, breakpoints, waitForStop: true, timeoutMs: 60_000 });
  const times = [];
  for (let i = 0; i <= warm; i++) {
    writeFileSync(pricing, i % 2 === 0 ? original.replace(buggy, fixed) : original);
    const [ms, result] = await timed(() => call('session_apply_changes', { sessionId }));
    if (result.changes[0]?.status !== 'applied') throw new Error(`not applied: ${JSON.stringify(result)}`);
    times.push(ms);
  }
  await call('session_stop', { sessionId });
  await client.close();
  writeFileSync(pricing, original);
  return times;
}

const emptyCache = mkdtempSync(join(tmpdir(), 'dbb-bench-worker-cache-'));
process.env.DEBUGBRIDGE_CACHE_DIR = emptyCache;
const { ensureWorkerBuilt } = await import(join(root, 'dist', 'engines', 'dotnet', 'worker', 'workerBuild.js'));
const [first] = await timed(() => ensureWorkerBuilt(dotnet));
const [cold, ...warm] = await applies({ DEBUGBRIDGE_CACHE_DIR: emptyCache }, runs);

// The alternative: edit, rebuild, run again to the same breakpoint.
const { client, call } = await connect();
const rebuilds = [];
for (let i = 0; i < Math.min(runs, 3); i++) {
  writeFileSync(pricing, i % 2 === 0 ? original.replace(buggy, fixed) : original);
  const [ms, stopped] = await timed(async () => {
    build();
    return call('session_launch', { program: dll, breakpoints, waitForStop: true, timeoutMs: 60_000 });
  });
  await call('session_stop', { sessionId: stopped.sessionId });
  rebuilds.push(ms);
}
await client.close();
writeFileSync(pricing, original);

const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
const warmMs = median(warm);
const rebuildMs = median(rebuilds);
console.log('dotnet live edit through MCP (a one-method edit, stopped in that method):');
console.log(`  warm apply ${s(warmMs)} (median of ${warm.length}; target ≤ 1 s: ${verdict(warmMs <= 1000)}); rebuild + restart to the same breakpoint ${s(rebuildMs)} (median of ${rebuilds.length}): ${(rebuildMs / warmMs).toFixed(1)}× the warm apply`);
console.log(`  cold apply (new server: the worker starts, Roslyn loads, the first compile) ${s(cold)}; building the worker (once per machine, NuGet packages already in the local cache) ${s(first)}`);
console.log(JSON.stringify({ bench: 'dotnet-liveedit', warmMs: Math.round(warmMs), coldMs: Math.round(cold), workerBuildMs: Math.round(first), rebuildRestartMs: Math.round(rebuildMs), runs: warm.length }));
process.exit(0);
