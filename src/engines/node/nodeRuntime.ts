/** Which node runs the debuggee, and its version. */
import { execFile } from 'node:child_process';

export interface NodeRuntime {
  executable: string;
  version: string;
}

export const INSTALL_NODE = 'Install Node.js 18 or later (https://nodejs.org), or pass runtimeExecutable: the path of a node binary.';

export function runtimeExecutable(options: Record<string, unknown> | undefined): string {
  const given = options?.runtimeExecutable;
  return typeof given === 'string' && given ? given : process.execPath;
}

export function findRuntime(options?: Record<string, unknown>): Promise<NodeRuntime> {
  const executable = runtimeExecutable(options);
  if (executable === process.execPath) return Promise.resolve({ executable, version: process.version });
  return new Promise((resolve, reject) => {
    execFile(executable, ['--version'], { timeout: 10_000 }, (error, stdout) => {
      const version = stdout.trim();
      if (error || !/^v\d+/.test(version)) reject(new Error(`${executable} --version failed${error ? `: ${error.message}` : ''}`));
      else resolve({ executable, version });
    });
  });
}

/** `runtimeArgs` option: extra node flags before the program (e.g. --enable-source-maps). */
export function runtimeArgs(options: Record<string, unknown>): string[] {
  const given = options.runtimeArgs;
  return Array.isArray(given) ? given.filter((a): a is string => typeof a === 'string') : [];
}
