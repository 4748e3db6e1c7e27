/** The dotnet engine factory: language `dotnet`, loaded on first use by the engine registry. */
import { execFile } from 'node:child_process';
import type { Engine, EngineContext, EngineFactory } from '../../core/engine.js';
import { isDebugError } from '../../core/errors.js';
import type { Availability } from '../../core/types.js';
import { loadAddon } from './addon.js';
import { dotnetCapabilities } from './capabilities.js';
import { hurrySpareHost, prepareSpareHost } from './debuggerHost.js';
import { DotnetEngine } from './dotnetEngine.js';
import { claimsProgram } from './program.js';
import { findDbgShim, findDotnet } from './runtimeEnv.js';

const installDotnet = 'Install the .NET SDK 8 or later: https://dot.net (Debian/Ubuntu: `sudo apt-get install dotnet-sdk-8.0`), or set DOTNET_ROOT.';

function run(file: string, args: string[]): Promise<string | undefined> {
  return new Promise((resolve) => {
    execFile(file, args, { timeout: 15_000, env: { ...process.env, DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' } }, (error, stdout) =>
      resolve(error ? undefined : stdout.trim()),
    );
  });
}

async function detect(): Promise<Availability> {
  let addon;
  try {
    addon = loadAddon();
  } catch (e) {
    return isDebugError(e)
      ? { available: false, reason: e.message, install: e.hint }
      : { available: false, reason: String(e) };
  }
  const dotnet = findDotnet();
  if (!dotnet) {
    // A self-contained program carries its runtime: it can be debugged with no host installed.
    if (addon.ownRuntimeAccess) {
      return {
        available: true,
        detail: `no \`dotnet\` host found: self-contained programs (their apphost or .dll) can be debugged; framework-dependent ones and projects need the .NET SDK (${installDotnet})`,
      };
    }
    return { available: false, reason: 'the `dotnet` host was not found', install: installDotnet };
  }
  const runtimes = (await run(dotnet, ['--list-runtimes'])) ?? '';
  const coreRuntimes = runtimes.split('\n').filter((l) => l.startsWith('Microsoft.NETCore.App '));
  if (coreRuntimes.length === 0) return { available: false, reason: `${dotnet} lists no Microsoft.NETCore.App runtime`, install: installDotnet };
  const version = coreRuntimes.at(-1)!.split(' ')[1];
  const sdk = await run(dotnet, ['--version']);
  let dbgshim: string | undefined;
  try {
    dbgshim = findDbgShim();
  } catch (e) {
    return { available: false, reason: e instanceof Error ? e.message : String(e), install: 'Fix or unset DBGSHIM_PATH.' };
  }
  if (!dbgshim && !addon.ownRuntimeAccess) {
    return {
      available: false,
      version,
      reason: `debugging .NET on ${process.platform} needs libdbgshim, which was not found`,
      install: 'Add the NuGet package Microsoft.Diagnostics.DbgShim and set DBGSHIM_PATH to its runtimes/<rid>/native folder.',
    };
  }
  const access = dbgshim ? `dbgshim ${dbgshim}` : "the runtime's own libmscordbi (no dbgshim needed)";
  return {
    available: true,
    version,
    detail: `${dotnet}; runtime ${version}${sdk ? `, SDK ${sdk}` : ' (no SDK: projects cannot be built, .dll files can be debugged)'}; debugger access through ${access}`,
  };
}

export const engine: EngineFactory = {
  language: 'dotnet',
  displayName: '.NET (C#)',
  extensions: ['.dll', '.csproj', '.exe'],
  capabilities: dotnetCapabilities,
  options: ['startupTimeoutMs', 'commandTimeoutMs'],
  detect,
  claims: claimsProgram,
  async prepare(): Promise<void> {
    prepareSpareHost(true);
  },
  hurry: hurrySpareHost,
  create(context: EngineContext): Engine {
    return new DotnetEngine(context);
  },
};

export default engine;
