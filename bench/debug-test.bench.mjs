// debug_test against the bare runner, per framework, in one run: the time from the debug_test call
// to its answer stopped at the failing assertion (through a real MCP client over stdio, one server
// for all calls), beside the time the framework's own runner takes to run the same failing test to
// its end without a debugger. Medians of RUNS (default 3) after one uncounted warm-up of each.
//
// Fixtures: test/fixtures/testing/ (the Node one is installed from its lock with `npm ci` when its
// node_modules is missing). A framework whose runtime is missing here is reported as skipped.
//
// Environment: RUNS (default 3), BENCH_ONLY (comma-separated framework names).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..');
const fixtures = join(root, 'test', 'fixtures', 'testing');
const RUNS = Math.max(1, Number(process.env.RUNS ?? 3));
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter(Boolean);
const { McpTestClient } = await import(pathToFileURL(join(root, 'dist', 'demo', 'mcpClient.js')).href);

const py = join(fixtures, 'python');
const node = join(fixtures, 'node');
const dn = join(fixtures, 'dotnet');
const PYTHON = '/usr/bin/python3';

const CASES = [
  { name: 'pytest', debug: { path: join(py, 'test_calc.py'), test: 'test_total' }, bare: [PYTHON, ['-m', 'pytest', '-q', `--rootdir=${py}`, 'test_calc.py::test_total'], py], needs: () => works(PYTHON, ['-c', 'import pytest, debugpy']) },
  {
    name: 'unittest',
    debug: { path: join(py, 'test_calc_unittest.py'), test: 'CalcTest.test_total', framework: 'unittest' },
    bare: [PYTHON, ['-m', 'unittest', 'test_calc_unittest.CalcTest.test_total'], py],
    needs: () => works(PYTHON, ['-c', 'import debugpy']),
  },
  { name: 'node:test', debug: { path: join(node, 'calc.nodetest.js'), test: 'totals' }, bare: [process.execPath, ['--test-name-pattern=totals', 'calc.nodetest.js'], node], needs: nodeFixture },
  {
    name: 'jest',
    debug: { path: join(node, 'calc.jest.test.js'), test: 'totals' },
    bare: [process.execPath, [join(node, 'node_modules', 'jest', 'bin', 'jest.js'), '--runInBand', '--no-watchman', '--ci', '--transform={}', 'calc.jest.test.js', '-t', 'totals'], node],
    needs: nodeFixture,
  },
  {
    name: 'vitest',
    debug: { path: join(node, 'calc.vitest.test.mjs'), test: 'totals' },
    bare: [process.execPath, [join(node, 'node_modules', 'vitest', 'vitest.mjs'), 'run', 'calc.vitest.test.mjs', '-t', 'totals'], node],
    needs: nodeFixture,
  },
  {
    name: 'dotnet test (xUnit, VSTest)',
    debug: { path: join(dn, 'XunitTests'), test: 'Totals' },
    bare: ['dotnet', ['test', 'XunitTests.csproj', '--nologo', '--filter', 'FullyQualifiedName~Totals'], join(dn, 'XunitTests')],
    needs: () => works('dotnet', ['--version']),
  },
  {
    name: 'MSTest (Testing Platform)',
    debug: { path: join(dn, 'MstestTests'), test: 'Totals' },
    bare: ['dotnet', ['run', '--project', 'MstestTests.csproj', '--', '--filter', 'FullyQualifiedName~Totals'], join(dn, 'MstestTests')],
    needs: () => works('dotnet', ['--version']),
  },
].filter((c) => ONLY.length === 0 || ONLY.some((o) => c.name.includes(o)));

function works(command, args) {
  return spawnSync(command, args, { stdio: 'ignore', timeout: 30_000 }).status === 0;
}

function nodeFixture() {
  if (existsSync(join(node, 'node_modules', '.package-lock.json'))) return true;
  return spawnSync('npm', ['ci', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: node, stdio: 'inherit', timeout: 300_000 }).status === 0;
}

const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  const m = Math.floor(v.length / 2);
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
};

function bareRun([command, args, cwd]) {
  const t0 = performance.now();
  const r = spawnSync(command, args, { cwd, stdio: 'ignore', timeout: 300_000, env: { ...process.env, NO_COLOR: '1' } });
  const ms = performance.now() - t0;
  if (r.status === 0) throw new Error(`${command} ${args.join(' ')} passed: the bench expects the failing test`);
  return ms;
}

async function debugRun(client, args) {
  const t0 = performance.now();
  const r = await client.call('debug_test', { ...args, timeoutMs: 300_000 }, { timeoutMs: 310_000 });
  const ms = performance.now() - t0;
  if (r.isError || r.structured.status !== 'stopped' || !r.structured.failure) throw new Error(`debug_test did not stop at the failure: ${r.text.slice(0, 400)}`);
  await client.call('session_stop', { sessionId: r.structured.sessionId });
  return ms;
}

const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-bench-test-')) } });
const rows = [];
let failed = 0;
try {
  for (const c of CASES) {
    if (!c.needs()) {
      rows.push({ name: c.name, skipped: 'runtime or runner missing' });
      continue;
    }
    try {
      // Warm-up (builds, caches, .pyc files), not counted.
      bareRun(c.bare);
      await debugRun(client, c.debug);
      const bare = [];
      const debug = [];
      for (let i = 0; i < RUNS; i++) {
        bare.push(bareRun(c.bare));
        debug.push(await debugRun(client, c.debug));
      }
      rows.push({ name: c.name, bare: median(bare), debug: median(debug) });
    } catch (e) {
      failed++;
      rows.push({ name: c.name, skipped: `failed: ${e.message}` });
    }
  }
} finally {
  await client.close();
}

console.log(`debug_test → stopped at the failing assertion, vs the bare runner running the same failing test to its end`);
console.log(`(medians of ${RUNS} runs after a warm-up; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores)\n`);
console.log('| framework | bare runner | debug_test to the failure stop | ratio |');
console.log('| --- | ---: | ---: | ---: |');
for (const r of rows) {
  if (r.skipped) console.log(`| ${r.name} | — | — | ${r.skipped} |`);
  else console.log(`| ${r.name} | ${Math.round(r.bare)} ms | ${Math.round(r.debug)} ms | ${(r.debug / r.bare).toFixed(2)}× |`);
}
process.exit(failed ? 1 : 0);
