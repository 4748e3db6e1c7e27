/**
 * What to execute for a .NET program: a .dll runs under the `dotnet` host, an apphost runs itself, and a
 * project (.csproj or a folder holding one) is built first with `dotnet build -c Debug`.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, extname, join, resolve } from 'node:path';
import { DebugError } from '../../core/errors.js';
import { runCommand } from '../../core/processGroup.js';

export interface Executable {
  /** Absolute path handed to execve. */
  file: string;
  argv: string[];
  /** The managed entry assembly, when known. */
  assembly?: string;
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** The single project file in a folder, if any. */
export function projectIn(folder: string): string | undefined {
  if (!isDirectory(folder)) return undefined;
  const projects = readdirSync(folder).filter((f) => extname(f).toLowerCase() === '.csproj');
  return projects.length === 1 ? join(folder, projects[0]!) : undefined;
}

const stemOf = (path: string): string => (extname(path).toLowerCase() === '.exe' ? path.slice(0, -4) : path);

/** An apphost: an executable file beside `<name>.dll` and `<name>.runtimeconfig.json`. */
export function isAppHost(path: string): boolean {
  const stem = stemOf(path);
  return existsSync(`${stem}.dll`) && existsSync(`${stem}.runtimeconfig.json`) && !isDirectory(path);
}

/**
 * The apphost of a self-contained app's `.dll`: such an app carries its runtime (its runtimeconfig
 * lists `includedFrameworks`), so no `dotnet` host is needed, or used, to start it.
 */
export function selfContainedHost(dll: string): string | undefined {
  const stem = dll.slice(0, -'.dll'.length);
  try {
    const config = JSON.parse(readFileSync(`${stem}.runtimeconfig.json`, 'utf8')) as { runtimeOptions?: { includedFrameworks?: unknown } };
    if (!config.runtimeOptions?.includedFrameworks) return undefined;
  } catch {
    return undefined;
  }
  const host = process.platform === 'win32' ? `${stem}.exe` : stem;
  return existsSync(host) && !isDirectory(host) ? host : undefined;
}

/** Whether the dotnet engine should take a program the extension does not decide. */
export function claimsProgram(program: string): boolean {
  return projectIn(program) !== undefined || (extname(program) === '' && isAppHost(program));
}

export function describeBuildFailure(output: string): string {
  const lines = output
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => /\berror\b/i.test(l) && !/^\d+ Error\(s\)$/.test(l));
  const unique = [...new Set(lines)];
  return unique.length > 0 ? unique.slice(0, 20).join('\n') : output.trim().split(/\r?\n/).slice(-15).join('\n');
}

/** Builds a project in Debug and answers the path of the built assembly; the build and what it starts end with us. */
export async function buildProject(dotnet: string, project: string, signal?: AbortSignal, timeoutMs = 300_000): Promise<string> {
  const r = await runCommand(dotnet, ['build', project, '-c', 'Debug', '-nologo', '-p:GenerateFullPaths=true'], {
    cwd: process.cwd(),
    env: { DOTNET_CLI_TELEMETRY_OPTOUT: '1', DOTNET_NOLOGO: '1' },
    timeoutMs,
    signal,
  });
  if (r.timedOut) throw new DebugError('TIMEOUT', `dotnet build of ${project} took longer than ${timeoutMs} ms`);
  const output = `${r.stdout}\n${r.stderr}`;
  if (r.code !== 0) {
    throw new DebugError('LAUNCH_BUILD_FAILED', `dotnet build failed for ${project}:\n${describeBuildFailure(output)}`, 'Fix the compile errors above, then launch again.');
  }
  // "  name -> /abs/path/bin/Debug/net10.0/name.dll"
  const outputs = [...output.matchAll(/^\s*\S+ -> (.+\.dll)\s*$/gm)].map((m) => m[1]!.trim());
  const name = basename(project, '.csproj');
  const assembly = outputs.find((p) => basename(p) === `${name}.dll`) ?? outputs.at(-1);
  if (!assembly) throw new DebugError('LAUNCH_BUILD_FAILED', `dotnet build of ${project} succeeded but named no output assembly`);
  return assembly;
}

/** Turns the program the agent named into what to execute (building a project first). */
export async function resolveExecutable(
  program: string,
  args: string[],
  cwd: string,
  dotnet: string | undefined,
  signal?: AbortSignal,
): Promise<Executable> {
  const path = resolve(cwd, program);
  if (!existsSync(path)) {
    throw new DebugError('PROGRAM_NOT_FOUND', `no such file or folder: ${path}`, 'Pass a .dll, a .csproj, a project folder or an apphost.');
  }
  const needDotnet = (): string => {
    if (!dotnet) {
      throw new DebugError('ENGINE_UNAVAILABLE', 'the `dotnet` host was not found', 'Install the .NET SDK (https://dot.net) or set DOTNET_ROOT.');
    }
    return dotnet;
  };
  const project = extname(path).toLowerCase() === '.csproj' ? path : projectIn(path);
  if (project) {
    const assembly = await buildProject(needDotnet(), project, signal);
    return { file: needDotnet(), argv: ['dotnet', assembly, ...args], assembly };
  }
  if (isDirectory(path)) {
    throw new DebugError('PROGRAM_NOT_FOUND', `${path} holds no single .csproj`, 'Name the project file or the built .dll.');
  }
  if (extname(path).toLowerCase() === '.dll') {
    const host = selfContainedHost(path);
    if (host) return { file: host, argv: [host, ...args], assembly: path };
    return { file: needDotnet(), argv: ['dotnet', path, ...args], assembly: path };
  }
  if (isAppHost(path)) return { file: path, argv: [path, ...args], assembly: `${stemOf(path)}.dll` };
  throw new DebugError(
    'PROGRAM_NOT_FOUND',
    `${path} is not a .NET program the engine knows (a .dll, a .csproj, a project folder or an apphost)`,
    'Pass the built .dll or the project.',
  );
}
