/** What the JavaScript runners' drivers read of a Node project: its root, its package.json, the runner it installed. */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { DebugError } from '../core/errors.js';
import { readSourceLines } from '../core/sourceReader.js';
import { commandLine, findUp, folderOf, isDirectory } from './commands.js';
import { splitFileId } from './jsTestNames.js';
import type { FrameworkName, TestPlan, TestRequest } from './types.js';

export const JS_FILE = /\.(c|m)?[jt]sx?$/;

export function nodeRoot(path: string): string {
  return findUp(path, ['package.json']) ?? folderOf(path);
}

export function fileText(path: string): string {
  return isDirectory(path) ? '' : (readSourceLines(path) ?? []).join('\n');
}

export interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  jest?: Record<string, unknown>;
  bin?: string | Record<string, string>;
}

export function packageJson(dir: string): PackageJson {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as PackageJson;
  } catch {
    return {};
  }
}

export function declares(root: string, name: string): boolean {
  const pkg = packageJson(root);
  return !!(pkg.dependencies?.[name] ?? pkg.devDependencies?.[name]);
}

/** The runner's executable script as the project installed it, or FRAMEWORK_NOT_INSTALLED. */
export function runnerBin(root: string, name: string, binName: string): string {
  let manifest: string;
  try {
    manifest = createRequire(join(root, 'package.json')).resolve(`${name}/package.json`);
  } catch {
    throw new DebugError('FRAMEWORK_NOT_INSTALLED', `${name} is not installed in ${root}.`, `Install it there: cd ${root} && npm install --save-dev ${name}`);
  }
  const bin = packageJson(dirname(manifest)).bin;
  const script = typeof bin === 'string' ? bin : bin?.[binName];
  if (!script) throw new DebugError('FRAMEWORK_NOT_INSTALLED', `${name} in ${dirname(manifest)} has no ${binName} command.`, `Reinstall it: cd ${root} && npm install --save-dev ${name}`);
  return join(dirname(manifest), script);
}

/** The request with a folder listing's id narrowed to the file it names. */
export function narrowed(request: TestRequest): TestRequest {
  if (!request.test || !isDirectory(request.path)) return request;
  const split = splitFileId(request.path, request.test);
  return split ? { ...request, path: split.file, test: split.test } : request;
}

const MAX_SCANNED_FILES = 500;

/** JavaScript and TypeScript files under a folder (node_modules and hidden folders left out). */
export function jsFilesUnder(dir: string, depth = 0, found: string[] = []): string[] {
  if (depth > 8 || found.length >= MAX_SCANNED_FILES) return found;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    if (entry.isDirectory()) jsFilesUnder(path, depth + 1, found);
    else if (JS_FILE.test(entry.name) && found.length < MAX_SCANNED_FILES) found.push(path);
  }
  return found;
}

/** The plan of a runner that is the debuggee itself (jest, mocha): its installed script run with these arguments, shown as `npx <runner> …`. */
export function runnerAsDebuggee(framework: FrameworkName, bin: string, args: string[], cwd: string, runner: Pick<TestPlan, 'frames' | 'outcome' | 'notFailures'>): TestPlan {
  return {
    framework,
    language: 'node',
    commandLine: commandLine('npx', [framework, ...args]),
    run: { kind: 'launch', program: bin, args, cwd, env: {}, options: {} },
    failureFilters: ['all'],
    flavour: 'braces',
    ...runner,
  };
}

/** The modules a test file imports its runner's functions from. */
const RUNNER_MODULES = ['node:test', 'vitest', '@jest/globals', 'mocha'];

/**
 * How sure a runner's driver is that a path is its runner's: a file that imports from its module
 * (4), one that imports from another runner's (0), else a project that declares the runner or has
 * its configuration file (`score`).
 */
export function runnerClaim(path: string, runner: { module: string; name: string; configs: string[]; score: number }): number {
  if (!JS_FILE.test(path) && !isDirectory(path)) return 0;
  const text = fileText(path);
  const imported = RUNNER_MODULES.filter((m) => new RegExp(`(?:\\bfrom|\\brequire\\s*\\(|\\bimport\\s*\\(?)\\s*(['"])${m.replace(/[/.]/g, '\\$&')}\\1`).test(text));
  if (imported.includes(runner.module)) return 4;
  if (imported.length) return 0;
  const root = nodeRoot(path);
  return declares(root, runner.name) || runner.configs.some((f) => existsSync(join(root, f))) ? runner.score : 0;
}
