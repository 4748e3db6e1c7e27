// What the .NET benchmarks share: the lab fixture built from source, its marked lines, an MCP client
// on the built server, and the statistics. Exits (skipped) when no .NET is on the machine.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const { findDotnet } = await import(join(root, 'dist', 'engines', 'dotnet', 'runtimeEnv.js'));
const { McpTestClient } = await import(join(root, 'dist', 'demo', 'mcpClient.js'));

export const runs = Number(process.env.BENCH_RUNS ?? 7);
export const dotnet = findDotnet();
if (!dotnet) {
  console.log('dotnet: skipped (no .NET found)');
  process.exit(0);
}
const lab = join(root, 'test', 'fixtures', 'dotnet', 'lab');
execFileSync(dotnet, ['build', lab, '-c', 'Debug', '-nologo', '-v:q'], { stdio: 'ignore' });
export const dll = join(lab, 'bin', 'Debug', 'lab.dll');
/** A lab source file and its line marked `BP:<marker>`. */
export const source = (file) => join(lab, file);
export const line = (file, marker) => readFileSync(source(file), 'utf8').split('\n').findIndex((l) => l.includes(`BP:${marker}`)) + 1;

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
