import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runtimeFilesOf } from '../../src/engines/dotnet/host/runtimeFiles.js';
import { selfContainedHost } from '../../src/engines/dotnet/program.js';
import { newestCoreLibrary } from '../../src/engines/dotnet/runtimeEnv.js';

/** A self-contained app's folder: its deps.json takes the runtime's assemblies from the runtime pack. */
function selfContainedApp(): string {
  const folder = mkdtempSync(join(tmpdir(), 'dbb-selfcontained-'));
  const deps = {
    targets: {
      '.NETCoreApp,Version=v10.0/win-x64': {
        'lab/1.0.0': { runtime: { 'lab.dll': {} } },
        'runtimepack.Microsoft.NETCore.App.Runtime.win-x64/10.0.12': { runtime: { 'System.Private.CoreLib.dll': {}, 'System.Console.dll': {} }, native: { 'coreclr.dll': {} } },
        'lablib/1.0.0': { runtime: { 'lablib.dll': {} } },
      },
    },
    libraries: { 'lab/1.0.0': { type: 'project' }, 'runtimepack.Microsoft.NETCore.App.Runtime.win-x64/10.0.12': { type: 'runtimepack' }, 'lablib/1.0.0': { type: 'project' } },
  };
  writeFileSync(join(folder, 'lab.deps.json'), JSON.stringify(deps));
  writeFileSync(join(folder, 'lab.runtimeconfig.json'), JSON.stringify({ runtimeOptions: { tfm: 'net10.0', includedFrameworks: [{ name: 'Microsoft.NETCore.App', version: '10.0.12' }] } }));
  writeFileSync(join(folder, 'lab.dll'), '');
  return folder;
}

describe('the .NET runtime beside a program', () => {
  it("takes a self-contained app's runtime files from its deps.json, and not the app's own assemblies", () => {
    const isRuntime = runtimeFilesOf(selfContainedApp());
    expect(isRuntime('System.Private.CoreLib.dll')).toBe(true);
    expect(isRuntime('system.console.dll')).toBe(true);
    expect(isRuntime('lab.dll')).toBe(false);
    expect(isRuntime('lablib.dll')).toBe(false);
  });

  it('takes every file of a shared framework folder as the runtime', () => {
    const shared = mkdtempSync(join(tmpdir(), 'dbb-shared-'));
    writeFileSync(join(shared, 'Microsoft.NETCore.App.deps.json'), '{}');
    expect(runtimeFilesOf(shared)('Anything.dll')).toBe(true);
  });

  it.runIf(process.platform !== 'win32')('finds the newest shared runtime\'s CoreLib beside the real `dotnet` host, versions compared as numbers', () => {
    const root = mkdtempSync(join(tmpdir(), 'dbb-dotnet-root-'));
    writeFileSync(join(root, 'dotnet'), '');
    const shared = join(root, 'shared', 'Microsoft.NETCore.App');
    const install = (version: string) => {
      mkdirSync(join(shared, version), { recursive: true });
      writeFileSync(join(shared, version, 'System.Private.CoreLib.dll'), '');
    };
    const bin = mkdtempSync(join(tmpdir(), 'dbb-dotnet-bin-'));
    symlinkSync(join(root, 'dotnet'), join(bin, 'dotnet')); // as /usr/bin/dotnet → /usr/share/dotnet/dotnet
    expect(newestCoreLibrary(join(bin, 'dotnet'))).toBeUndefined(); // no shared runtime
    ['8.0.9', '8.0.10', '11.0.0-rc.2.25502.107'].forEach(install);
    expect(newestCoreLibrary(join(bin, 'dotnet'))).toBe(join(shared, '8.0.10', 'System.Private.CoreLib.dll'));
    ['10.0.2', '10.0.12'].forEach(install);
    expect(newestCoreLibrary(join(bin, 'dotnet'))).toBe(join(shared, '10.0.12', 'System.Private.CoreLib.dll'));
  });

  it("runs a self-contained .dll through its apphost, and a framework-dependent one not", () => {
    const app = selfContainedApp();
    const host = join(app, process.platform === 'win32' ? 'lab.exe' : 'lab');
    expect(selfContainedHost(join(app, 'lab.dll'))).toBeUndefined(); // no apphost beside it yet
    writeFileSync(host, '');
    expect(selfContainedHost(join(app, 'lab.dll'))).toBe(host);
    writeFileSync(join(app, 'lab.runtimeconfig.json'), JSON.stringify({ runtimeOptions: { tfm: 'net10.0', framework: { name: 'Microsoft.NETCore.App', version: '10.0.0' } } }));
    expect(selfContainedHost(join(app, 'lab.dll'))).toBeUndefined();
  });
});
