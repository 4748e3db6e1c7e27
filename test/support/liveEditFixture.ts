/**
 * A private copy of a C# fixture for live edit tests: the tests edit its source files, so it is
 * copied to a temporary folder and built there once (the PDB names those files); `restore()` puts
 * the files back as built between tests.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixtureProject, fixturesDir } from '../fixtures/dotnet/fixtures.js';
import { markerLine } from '../../src/demo/markers.js';

export interface EditableFixture {
  dir: string;
  dll: string;
  file(name: string): string;
  /** 1-based line of `// BP:<marker>` in a file. */
  line(name: string, marker: string): number;
  /** Replaces text in a file on disk (it must be there exactly once). */
  edit(name: string, from: string, to: string): void;
  restore(): void;
  remove(): void;
}

export function buildEditableFixture(name: string, dotnet: string): EditableFixture {
  const root = mkdtempSync(join(tmpdir(), `dbb-liveedit-${name}-`));
  const dir = join(root, name);
  cpSync(fixtureProject(name), dir, { recursive: true, filter: (src) => !/[\\/](bin|obj)$/.test(src) });
  for (const shared of ['Directory.Build.props', 'nuget.config']) cpSync(join(fixturesDir, shared), join(root, shared));
  execFileSync(dotnet, ['build', dir, '-c', 'Debug', '-nologo', '-v:q'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 300_000,
    env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' },
  });
  const originals = new Map<string, string>();
  const file = (f: string) => join(dir, f);
  return {
    dir,
    dll: join(dir, 'bin', 'Debug', `${name}.dll`),
    file,
    line: (f, marker) => markerLine(file(f), `BP:${marker}`),
    edit(f, from, to) {
      const path = file(f);
      const text = readFileSync(path, 'utf8');
      if (!originals.has(path)) originals.set(path, text);
      if (text.split(from).length !== 2) throw new Error(`${f} does not contain ${JSON.stringify(from)} exactly once`);
      writeFileSync(path, text.replace(from, to));
    },
    restore() {
      for (const [path, text] of originals) writeFileSync(path, text);
      originals.clear();
    },
    remove() {
      rmSync(root, { recursive: true, force: true });
    },
  };
}
