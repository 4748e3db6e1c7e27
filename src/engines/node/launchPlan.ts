/**
 * How to run a program. JavaScript runs as it is. TypeScript runs through what this machine
 * has, in this order unless `tsRunner` says otherwise: the project's tsx, its ts-node, node's
 * own type stripping (Node.js ≥ 22.6, not .tsx), or JavaScript compiled from it with a source
 * map. The plan says which, so the launch answer can; with none, the error says what to install.
 */
import { createRequire } from 'node:module';
import { dirname, extname } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DebugError } from '../../core/errors.js';
import { compiledOutputOf } from './compiledOutput.js';
import type { NodeRuntime } from './nodeRuntime.js';

export interface LaunchPlan {
  /** The file node is given. */
  entry: string;
  /** Flags before it (a loader). */
  runtimeArgs: string[];
  /** TypeScript runs as written with its types blanked out: its breakpoints bind by its own URL, line for line. */
  typesStrippedInPlace: boolean;
  /** For the launch answer, when the engine chose how to run the program. */
  note?: string;
  /** How TypeScript runs (a live edit compiles it again the same way); undefined for JavaScript. */
  runner?: TypeScriptRunner;
}

export type TypeScriptRunner = 'tsx' | 'ts-node' | 'node' | 'compiled';

const TS_EXTENSIONS = ['.ts', '.tsx', '.mts', '.cts'];
/** tsxLines.ts, compiled to dist/ beside this module (also when this runs from its TypeScript source, in tests). */
const TSX_LINES_URL = new URL(import.meta.url.endsWith('.ts') ? '../../../dist/engines/node/tsxLines.js' : './tsxLines.js', import.meta.url).href;
const RUNNERS: TypeScriptRunner[] = ['tsx', 'ts-node', 'node', 'compiled'];

export function isTypeScript(file: string): boolean {
  return TS_EXTENSIONS.includes(extname(file).toLowerCase());
}

export function planLaunch(program: string, runtime: NodeRuntime, options: Record<string, unknown>): LaunchPlan {
  if (!isTypeScript(program)) return { entry: program, runtimeArgs: [], typesStrippedInPlace: false };
  const asked = options.tsRunner;
  if (asked !== undefined && !RUNNERS.includes(asked as TypeScriptRunner)) {
    throw new DebugError('INVALID_ARGUMENT', `tsRunner "${String(asked)}" is not one of ${RUNNERS.join(', ')}.`, 'Leave tsRunner out to let the engine pick, or name one of those.');
  }
  const reasons: string[] = [];
  for (const runner of asked ? [asked as TypeScriptRunner] : RUNNERS) {
    const plan = tryRunner(runner, program, runtime, reasons);
    if (plan) return plan;
  }
  const where = dirname(program);
  throw new DebugError(
    'ENGINE_UNAVAILABLE',
    `Nothing here runs ${program}: ${reasons.join('; ')}.`,
    `Install tsx where the program can load it: \`npm install --save-dev tsx\` in ${where} (or a folder above it), then launch again; ` +
      'or compile it with `tsc --sourceMap` and launch the .js; or pass runtimeExecutable: a Node.js 22.6 or later.',
  );
}

function tryRunner(runner: TypeScriptRunner, program: string, runtime: NodeRuntime, reasons: string[]): LaunchPlan | undefined {
  const load = createRequire(program);
  switch (runner) {
    case 'tsx': {
      const loader = resolveFrom(load, 'tsx');
      if (!loader) return void reasons.push('tsx is not installed where it can load it');
      const imports = supportsImportFlag(runtime);
      // Ahead of tsx, a module that keeps tsx's output on separate lines, so that V8 can apply live edits.
      const lines = imports ? ['--import', `${TSX_LINES_URL}?tsx=${encodeURIComponent(resolveFrom(load, 'tsx/package.json') ?? loader)}`] : [];
      return {
        entry: program,
        runtimeArgs: [...lines, imports ? '--import' : '--loader', pathToFileURL(loader).href],
        typesStrippedInPlace: false,
        runner,
        note: `Runs with tsx ${versionOf(load, 'tsx')} (node --import tsx), from ${packageDir(loader, 'tsx')}${imports ? '; its JavaScript kept on separate lines for live edit' : ''}.`,
      };
    }
    case 'ts-node': {
      const register = resolveFrom(load, 'ts-node/register');
      if (!register) return void reasons.push('ts-node is not installed where it can load it');
      if (!resolveFrom(createRequire(register), 'typescript')) return void reasons.push('ts-node is installed but typescript is not');
      const esm = extname(program) === '.mts';
      const hook = esm ? ['--loader', pathToFileURL(resolveFrom(load, 'ts-node/esm')!).href] : ['--require', register];
      return {
        entry: program,
        runtimeArgs: hook,
        typesStrippedInPlace: false,
        runner,
        note: `Runs with ts-node ${versionOf(load, 'ts-node')} (node ${esm ? '--loader ts-node/esm' : '--require ts-node/register'}), from ${packageDir(register, 'ts-node')}.`,
      };
    }
    case 'node': {
      const flags = typeStrippingFlags(runtime.version);
      if (!flags) return void reasons.push(`Node.js ${runtime.version} cannot strip types (that needs 22.6 or later)`);
      if (extname(program) === '.tsx') return void reasons.push("node's type stripping does not run .tsx");
      return {
        entry: program,
        runtimeArgs: flags,
        typesStrippedInPlace: true,
        runner,
        note: `Runs with Node.js ${runtime.version}'s own type stripping${flags.length ? ` (${flags.join(' ')})` : ''}: lines are the TypeScript lines.`,
      };
    }
    case 'compiled': {
      const compiled = compiledOutputOf(program);
      if (!compiled) return void reasons.push('no JavaScript compiled from it with a source map was found (beside it, or in the outDir of its tsconfig.json)');
      return { entry: compiled, runtimeArgs: [], typesStrippedInPlace: false, runner, note: `Runs the compiled ${compiled}; its source map leads back to ${program}.` };
    }
  }
}

/** `--experimental-strip-types` on 22.6–23.5; nothing from 23.6 (on by default); undefined before 22.6. */
export function typeStrippingFlags(version: string): string[] | undefined {
  const [major, minor] = version.replace(/^v/, '').split('.').map(Number);
  if (major > 23 || (major === 23 && minor >= 6)) return [];
  if (major >= 23 || (major === 22 && minor >= 6)) return ['--experimental-strip-types'];
  return undefined;
}

function supportsImportFlag(runtime: NodeRuntime): boolean {
  const [major, minor] = runtime.version.replace(/^v/, '').split('.').map(Number);
  return major > 20 || (major === 20 && minor >= 6) || (major === 18 && minor >= 18);
}

function resolveFrom(load: NodeJS.Require, specifier: string): string | undefined {
  try {
    return load.resolve(specifier);
  } catch {
    return undefined;
  }
}

function versionOf(load: NodeJS.Require, name: string): string {
  try {
    return (load(`${name}/package.json`) as { version?: string }).version ?? '';
  } catch {
    return '';
  }
}

function packageDir(file: string, name: string): string {
  const at = file.lastIndexOf(`node_modules/${name}/`);
  return at >= 0 ? file.slice(0, at + `node_modules/${name}`.length) : dirname(file);
}
