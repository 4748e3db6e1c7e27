// What the .NET benchmarks share: the lab fixture built from source, its marked lines, an MCP client
// on the built server, and the statistics. Exits (skipped) when no .NET is on the machine.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { findDotnet } = await import(join(root, 'dist', 'engines', 'dotnet', 'runtimeEnv.js'));
export const { McpTestClient } = await import(join(root, 'dist', 'demo', 'mcpClient.js'));

export const runs = Number(process.env.BENCH_RUNS ?? 7);
export const dotnet = findDotnet();
if (!dotnet) {
  console.log('dotnet: skipped (no .NET found)');
  process.exit(0);
}
/** A C# fixture of test/fixtures/dotnet built (Debug): its dll, its files and their lines marked `BP:<marker>`. */
export function fixture(name) {
  const folder = join(root, 'test', 'fixtures', 'dotnet', name);
  execFileSync(dotnet, ['build', folder, '-c', 'Debug', '-nologo', '-v:q'], { stdio: 'ignore' });
  const source = (file) => join(folder, file);
  const line = (file, marker) => readFileSync(source(file), 'utf8').split('\n').findIndex((l) => new RegExp(`BP:${marker}(\\s|$)`).test(l)) + 1;
  return { dll: join(folder, 'bin', 'Debug', `${name}.dll`), source, line };
}

const lab = fixture('lab');
export const dll = lab.dll;
/** A lab source file and its line marked `BP:<marker>`. */
export const source = lab.source;
export const line = lab.line;

export const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
export async function timed(work) {
  const t0 = performance.now();
  const result = await work();
  return [performance.now() - t0, result];
}
export const verdict = (ok) => (ok ? 'PASS' : 'MISS');

/** The server over stdio, and a call that throws on an error answer. */
export async function connect(env = {}) {
  const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-bench-')), ...env } });
  const call = async (tool, args) => {
    const r = await client.call(tool, args, { timeoutMs: 600_000 });
    if (r.isError) throw new Error(`${tool}: ${r.text}`);
    return r.structured;
  };
  return { client, call };
}
