// .NET on Windows x64, under Wine: launch → first stop, steps, evaluation and 10,000 false conditions
// through the server under Windows node.exe, each beside the bare program under Wine in the same run
// (the memory page cache hooks ReadProcessMemory there; DEBUGBRIDGE_DOTNET_MEMORY_CACHE=0 measures
// without it). The Windows side is
// bench/lib/dotnetWindowsRun.mjs; the bed (Wine prefix, node.exe, the mingw-built addon, the lab
// fixture published for win-x64) is the Windows tests' (test/windows/support/bed.mjs). Skipped, with
// the reason, where Wine is not installed. BENCH_RUNS (default 3 here: Wine is slow to start
// processes), BENCH_CONDITION_ROUNDS (default 10,000).
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const bed = await import(join(root, 'test', 'windows', 'support', 'bed.mjs'));
if (!bed.bedAvailable()) {
  console.log(`dotnet-windows: skipped (no Wine at ${bed.WINE}, or no mingw-w64 or dotnet: apt-get install -y wine64 g++-mingw-w64-x86-64-posix)`);
  process.exit(0);
}
const runs = process.env.BENCH_RUNS ?? '3';
const rounds = process.env.BENCH_CONDITION_ROUNDS ?? '10000';
const { node, apps } = bed.prepareBed(['lab']);
const labSource = (file) => bed.winPath(join(root, 'test', 'fixtures', 'dotnet', 'lab', file));
// node.exe's stdout cannot be a Linux pipe under Wine (EBADF): it writes to a file, printed after.
const report = join(mkdtempSync(join(tmpdir(), 'dbb-bench-win-')), 'report.txt');
const fd = openSync(report, 'w');
const r = spawnSync(
  bed.WINE,
  [node, bed.winPath(join(root, 'bench', 'lib', 'dotnetWindowsRun.mjs')), bed.winPath(apps.lab), labSource('Program.cs'), labSource('Values.cs'), runs, rounds],
  { cwd: root, env: bed.wineEnv(), stdio: ['ignore', fd, fd], timeout: 3_600_000 },
);
closeSync(fd);
process.stdout.write(readFileSync(report, 'utf8'));
if (r.status !== 0) {
  console.log(`dotnet-windows: the Windows side ended with ${r.error?.message ?? r.status}`);
  process.exit(1);
}
process.exit(0);
