// How soon the end of a program is reported: from a stop a few lines before the end,
// `execution_continue` until it answers `exited`, through MCP, beside a bare run of the same tail
// (the program run without a debugger, from the moment it reaches the same line to its exit, seen
// by its parent). Python (from a ready debuggee, the way most launches start, and the normal way),
// Node.js and .NET; each launch is a fresh one in one server, and each figure the median of RUNS
// (default 7). The target: every runtime within bare + 100 ms.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const { McpTestClient } = await import(join(root, 'dist', 'demo', 'mcpClient.js'));
const { findDotnet } = await import(join(root, 'dist', 'engines', 'dotnet', 'runtimeEnv.js'));
const RUNS = Math.max(1, Number(process.env.RUNS ?? 7));
const PYTHON = process.env.BENCH_PYTHON ?? '/usr/bin/python3';
const fixtures = join(here, 'fixtures', 'program-end');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const markerLine = (file) => readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes('BP:end')) + 1;

/** A bare run's tail: from the mark the program prints at the line before the breakpoint's to its exit. */
function bareTail(command, args, cwd) {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, BENCH_MARK: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    child.on('error', reject);
    child.on('exit', () => {
      const mark = /mark (\d+(?:\.\d+)?)/.exec(err);
      if (!mark) return reject(new Error(`${command}: no mark in ${err}`));
      resolve(Date.now() - Number(mark[1]));
    });
  });
}

async function debuggedTail(client, program, source, options = {}) {
  const started = await client.call('session_launch', { program, breakpoints: [{ file: source, line: markerLine(source) }], waitForStop: true, ...options });
  if (started.isError || started.structured.status !== 'stopped') throw new Error(`launch: ${started.text}`);
  const t0 = performance.now();
  const ended = await client.call('execution_continue', {});
  const ms = performance.now() - t0;
  if (ended.structured.status !== 'exited') throw new Error(`continue: ${ended.text}`);
  const how = (await client.call('session_diagnostics', {})).structured.diagnostics?.engine?.details?.start;
  await client.call('session_stop', {});
  return { ms, how };
}

const rows = [];
async function measure(name, { program, source, bare, options, wantStart }) {
  const client = await McpTestClient.start({ cwd: dirname(source), env: { DEBUGBRIDGE_PYTHON: PYTHON, DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-bench-end-')), ...(options?.serverEnv ?? {}) } });
  try {
    await debuggedTail(client, program, source, options?.launch); // warm-up: page cache, the next ready process
    const debugged = [];
    const bareRuns = [];
    for (let i = 0; i < RUNS; i++) {
      await new Promise((r) => setTimeout(r, 1500)); // as an agent thinks: what is readied gets ready
      const { ms, how } = await debuggedTail(client, program, source, options?.launch);
      if (wantStart && how !== wantStart) throw new Error(`${name}: started as ${how}, not ${wantStart}`);
      debugged.push(ms);
      bareRuns.push(await bare());
    }
    rows.push({ name, debugged: median(debugged), bare: median(bareRuns) });
  } finally {
    await client.close();
  }
}

const py = join(fixtures, 'tail.py');
await measure('Python, from a ready debuggee', { program: py, source: py, bare: () => bareTail(PYTHON, [py], fixtures), wantStart: 'ready debuggee' });
await measure('Python, launched the normal way', { program: py, source: py, bare: () => bareTail(PYTHON, [py], fixtures), options: { serverEnv: { DEBUGBRIDGE_READY_DEBUGGEE: '0' } }, wantStart: 'normal launch' });
const js = join(fixtures, 'tail.js');
await measure('Node.js', { program: js, source: js, bare: () => bareTail(process.execPath, [js], fixtures) });
const dotnet = findDotnet();
if (dotnet) {
  const project = join(fixtures, 'dotnet');
  execFileSync(dotnet, ['build', project, '-c', 'Debug', '-nologo', '-v:q', '-o', join(project, 'bin', 'out')], { stdio: 'ignore' });
  const dll = join(project, 'bin', 'out', 'Tail.dll');
  await measure('.NET', { program: dll, source: join(project, 'Program.cs'), bare: () => bareTail(dotnet, [dll], project) });
} else {
  console.log('.NET: skipped (no dotnet found)');
}

console.log(`continue → exited, from a stop two lines before the end (median of ${RUNS}; load ${loadavg()[0].toFixed(1)})`);
console.log('runtime                              debugged    bare tail   difference  target ≤ bare + 100 ms');
for (const r of rows) {
  const diff = r.debugged - r.bare;
  console.log(`${r.name.padEnd(36)} ${r.debugged.toFixed(0).padStart(6)} ms ${r.bare.toFixed(0).padStart(8)} ms ${`+${diff.toFixed(0)}`.padStart(9)} ms   ${diff <= 100 ? 'PASS' : 'MISS'}`);
}
