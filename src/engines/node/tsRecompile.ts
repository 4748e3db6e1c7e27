/**
 * TypeScript compiled again for a live edit, by the compiler the program runs it through, from the
 * program's own packages: tsx's esbuild with the options tsx gives it (and tsx's interop after each
 * dynamic `import()`), ts-node's own compiler service set up as the program's was, or TypeScript's
 * `transpileModule` with the project's tsconfig (JavaScript compiled by tsc). Each answers the new script text and its source map, the map naming
 * the TypeScript file by its absolute URL.
 */
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TypeScriptRunner } from './launchPlan.js';
import { withImportInterop } from './importInterop.js';

export interface Recompiled {
  code: string;
  /** The source map, parsed; its `sources` name the TypeScript file. */
  map: object;
}

export interface Recompiler {
  /** What compiles, for the answer: "esbuild 0.28.2 (tsx)". */
  readonly name: string;
  /** `loaded`: the script's text as the runtime has it, which tells the module format it was compiled to. */
  compile(file: string, text: string, loaded: string): Promise<Recompiled>;
  dispose(): Promise<void>;
}

/** Where and with what environment the program was launched: ts-node finds its tsconfig from there. */
export interface LaunchEnvironment {
  cwd: string;
  env: Record<string, string | undefined>;
}

/** The compiler of a runner, from the packages `file` can load; undefined when none is there. */
export function recompilerFor(runner: TypeScriptRunner, file: string, runtimeVersion: string, launch?: LaunchEnvironment): Recompiler | undefined {
  const load = createRequire(file);
  if (runner === 'tsx') {
    const tsx = resolveFrom(load, 'tsx/package.json');
    const esbuild = tsx && resolveFrom(createRequire(tsx), 'esbuild');
    return esbuild ? new EsbuildRecompiler(createRequire(tsx)(esbuild) as Esbuild, runtimeVersion) : undefined;
  }
  if (runner === 'ts-node') {
    const tsNode = resolveFrom(load, 'ts-node');
    return tsNode ? new TsNodeRecompiler(load(tsNode) as TsNodeApi, launch) : undefined;
  }
  if (runner === 'compiled') {
    const typescript = resolveFrom(load, 'typescript');
    return typescript ? new TypeScriptRecompiler(load(typescript) as TypeScriptApi) : undefined;
  }
  return undefined;
}

function resolveFrom(load: NodeJS.Require, specifier: string): string | undefined {
  try {
    return load.resolve(specifier);
  } catch {
    return undefined;
  }
}

/** The part of esbuild's API used here. */
interface Esbuild {
  version: string;
  transform(input: string, options: Record<string, unknown>): Promise<{ code: string; map: string }>;
  stop?(): void | Promise<void>;
}

/** The banner and footer tsx puts around a CommonJS module (it sets __filename for the module's own code). */
const TSX_CJS_BANNER = /^__filename=("(?:[^"\\]|\\.)*");\(\(\)=>\{/;
const TSX_CJS_FOOTER = '})()';

class EsbuildRecompiler implements Recompiler {
  readonly name: string;

  constructor(
    private readonly esbuild: Esbuild,
    private readonly runtimeVersion: string,
  ) {
    this.name = `esbuild ${esbuild.version} (tsx)`;
  }

  async compile(file: string, text: string, loaded: string): Promise<Recompiled> {
    // tsx compiles a module to CommonJS inside a banner that names the file as tsx resolved it.
    const named = TSX_CJS_BANNER.exec(loaded)?.[1];
    const banner = `__filename=${named};(()=>{`;
    const commonJs = named !== undefined;
    const out = await this.esbuild.transform(text, {
      target: `node${this.runtimeVersion.replace(/^v/, '')}`,
      loader: file.endsWith('x') ? 'tsx' : 'ts',
      sourcemap: 'external',
      sourcesContent: true,
      // tsx writes a module on one line; under debugbridge (tsxLines.ts) it keeps the lines.
      minifyWhitespace: onOneLine(loaded, named),
      keepNames: true,
      format: commonJs ? 'cjs' : 'esm',
      sourcefile: file,
      platform: 'node',
      ...(commonJs ? { banner, footer: TSX_CJS_FOOTER } : {}),
    });
    const map = withSource(JSON.parse(out.map) as SourceMapJson, file);
    return withImportInterop({ code: out.code, map }, loaded);
  }

  async dispose(): Promise<void> {
    // esbuild keeps a service process for asynchronous transforms: it goes with the session.
    await this.esbuild.stop?.();
  }
}

/** Whether tsx wrote the module's code on one line (between its banner and footer, before the map comment). */
function onOneLine(loaded: string, banner: string | undefined): boolean {
  let code = loaded.replace(/\n?\/\/# sourceMappingURL=\S*\s*$/, '').trim();
  if (banner !== undefined) code = code.slice(code.indexOf('\n') + 1).replace(/\n?\}\)\(\)$/, '');
  return !code.trim().includes('\n');
}

/** The part of TypeScript's API used here. */
interface TypeScriptApi {
  version: string;
  findConfigFile(searchPath: string, fileExists: (file: string) => boolean): string | undefined;
  readConfigFile(file: string, readFile: (file: string) => string | undefined): { config?: unknown };
  parseJsonConfigFileContent(json: unknown, host: unknown, basePath: string): { options: Record<string, unknown> };
  transpileModule(text: string, options: { compilerOptions: Record<string, unknown>; fileName: string; reportDiagnostics: boolean }): { outputText: string; sourceMapText?: string; diagnostics?: Diagnostic[] };
  flattenDiagnosticMessageText(message: unknown, newLine: string): string;
  sys: { fileExists(file: string): boolean; readFile(file: string): string | undefined };
}

/** TypeScript's DiagnosticCategory.Error. */
const DIAGNOSTIC_ERROR = 1;

interface Diagnostic {
  category: number;
  messageText: unknown;
  start?: number;
  file?: { getLineAndCharacterOfPosition(position: number): { line: number; character: number } };
}

/** esbuild's error place: 1-based line, 0-based column. */
function oneBasedLine(at: { line: number; character: number }) {
  return { line: at.line + 1, column: at.character };
}

class TypeScriptRecompiler implements Recompiler {
  readonly name: string;
  private readonly options = new Map<string, Record<string, unknown>>();

  constructor(private readonly ts: TypeScriptApi) {
    this.name = `TypeScript ${ts.version}`;
  }

  async compile(file: string, text: string): Promise<Recompiled> {
    const compilerOptions = { ...this.projectOptions(file), sourceMap: true, inlineSourceMap: false, inlineSources: true, declaration: false, declarationMap: false };
    const out = this.ts.transpileModule(text, { compilerOptions, fileName: file, reportDiagnostics: true });
    const errors = (out.diagnostics ?? []).filter((d) => d.category === DIAGNOSTIC_ERROR);
    if (errors.length) throw { errors: errors.map((d) => ({ text: this.ts.flattenDiagnosticMessageText(d.messageText, ' '), location: d.file && d.start !== undefined ? oneBasedLine(d.file.getLineAndCharacterOfPosition(d.start)) : undefined })) };
    const code = out.outputText.replace(/\n\/\/# sourceMappingURL=.*\s*$/, '\n');
    const map = withSource(JSON.parse(out.sourceMapText ?? '{}') as SourceMapJson, file);
    return { code, map };
  }

  /** The compiler options of the tsconfig.json that holds the file (the nearest one above it). */
  private projectOptions(file: string): Record<string, unknown> {
    const folder = dirname(file);
    let options = this.options.get(folder);
    if (!options) {
      const { ts } = this;
      const config = ts.findConfigFile(folder, (f) => ts.sys.fileExists(f));
      const json = config ? ts.readConfigFile(config, (f) => ts.sys.readFile(f)).config : undefined;
      options = json && config ? ts.parseJsonConfigFileContent(json, ts.sys, dirname(config)).options : {};
      this.options.set(folder, options);
    }
    return options;
  }

  async dispose(): Promise<void> {
    // Nothing runs beside the compiler.
  }
}

/** The part of ts-node's API used here. */
interface TsNodeApi {
  VERSION: string;
  create(options: Record<string, unknown>): { ts: TypeScriptApi; compile(code: string, fileName: string): string };
}

/** ts-node's error for code it cannot compile (TSError), with TypeScript's diagnostics. */
interface TsNodeError {
  diagnostics?: Diagnostic[];
}

const INLINE_MAP = /\n\/\/# sourceMappingURL=data:application\/json;charset=utf-8;base64,(\S+)\s*$/;

/**
 * ts-node's own compiler service, set up as the program's ts-node set itself up: the tsconfig it
 * finds from the program's working folder (or TS_NODE_PROJECT), its "ts-node" options, its module
 * format rules. Only types are not checked (an edit is compiled as `transpileOnly` would).
 */
class TsNodeRecompiler implements Recompiler {
  readonly name: string;
  private service?: ReturnType<TsNodeApi['create']>;

  constructor(
    private readonly tsNode: TsNodeApi,
    private readonly launch: LaunchEnvironment | undefined,
  ) {
    this.name = `ts-node ${tsNode.VERSION}`;
  }

  async compile(file: string, text: string): Promise<Recompiled> {
    this.service ??= this.tsNode.create(tsNodeOptions(this.launch));
    const { ts } = this.service;
    let out: string;
    try {
      out = this.service.compile(text, file);
    } catch (e) {
      const diagnostics = (e as TsNodeError).diagnostics;
      if (!diagnostics?.length) throw e;
      throw { errors: diagnostics.map((d) => ({ text: ts.flattenDiagnosticMessageText(d.messageText, ' '), location: d.file && d.start !== undefined ? oneBasedLine(d.file.getLineAndCharacterOfPosition(d.start)) : undefined })) };
    }
    const inline = INLINE_MAP.exec(out);
    if (!inline) throw new Error('ts-node answered code without its source map');
    const map = withSource(JSON.parse(Buffer.from(inline[1]!, 'base64').toString('utf8')) as SourceMapJson, file);
    return { code: `${out.slice(0, inline.index)}\n`, map };
  }

  async dispose(): Promise<void> {
    // Nothing runs beside the compiler.
  }
}

/** The options ts-node took from the program's environment (its TS_NODE_* variables), read from the debuggee's. */
function tsNodeOptions(launch: LaunchEnvironment | undefined): Record<string, unknown> {
  const env = launch?.env ?? {};
  const options: Record<string, unknown> = { cwd: env.TS_NODE_CWD ?? env.TS_NODE_DIR ?? launch?.cwd, transpileOnly: true };
  if (env.TS_NODE_PROJECT) options.project = env.TS_NODE_PROJECT;
  if (env.TS_NODE_SKIP_PROJECT) options.skipProject = /^(true|1|yes|y|on)$/i.test(env.TS_NODE_SKIP_PROJECT);
  if (env.TS_NODE_COMPILER_OPTIONS) options.compilerOptions = JSON.parse(env.TS_NODE_COMPILER_OPTIONS) as unknown;
  if (env.TS_NODE_COMPILER) options.compiler = env.TS_NODE_COMPILER;
  return options;
}

export interface SourceMapJson {
  version: number;
  sources: string[];
  sourcesContent?: (string | null)[];
  sourceRoot?: string;
  mappings: string | number[][][];
  names: string[];
  file?: string;
}

/** A one-file map made to name that file by its URL, whatever the compiler wrote. */
function withSource(map: SourceMapJson, file: string): SourceMapJson {
  return { ...map, sources: [pathToFileURL(file).href], sourceRoot: undefined };
}
