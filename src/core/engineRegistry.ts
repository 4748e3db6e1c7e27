/**
 * Finds the engine for a language, importing it on first use: built-in engines live in
 * `../engines/<language>/index.js`; any other language is looked up as the npm package
 * `debugbridge-engine-<language>`. Both export `engine: EngineFactory`.
 */
import { existsSync, statSync } from 'node:fs';
import { extname } from 'node:path';
import { DebugError, isDebugError } from './errors.js';
import type { EngineFactory } from './engine.js';
import type { Availability } from './types.js';

export const BUILT_IN_LANGUAGES = ['python', 'node', 'dotnet'] as const;
/** Built-in engines whose readying needs no probe but its own (a .NET host needs the full detect first). */
const LIGHT_READYING = ['python', 'node'] as const;

const EXTENSION_HINTS: Record<string, string> = {
  '.py': 'python',
  '.js': 'node',
  '.mjs': 'node',
  '.cjs': 'node',
  '.ts': 'node',
  '.tsx': 'node',
  '.mts': 'node',
  '.cts': 'node',
  '.dll': 'dotnet',
  '.csproj': 'dotnet',
  '.exe': 'dotnet',
};

type Importer = (specifier: string) => Promise<unknown>;

/**
 * The built-in modules the registry loads, each by a literal import() so that the build's bundler
 * (scripts/bundle-cli.mjs) sees it and makes it a chunk of its own, loaded on first use.
 */
const BUILT_IN_MODULES: Record<string, () => Promise<unknown>> = {
  '../engines/python/index.js': () => import('../engines/python/index.js'),
  '../engines/node/index.js': () => import('../engines/node/index.js'),
  '../engines/dotnet/index.js': () => import('../engines/dotnet/index.js'),
  '../engines/python/readying.js': () => import('../engines/python/readying.js'),
  '../engines/node/readying.js': () => import('../engines/node/readying.js'),
  '../engines/debugPort.js': () => import('../engines/debugPort.js'),
};
const importBuiltInOrPackage: Importer = (specifier) => BUILT_IN_MODULES[specifier]?.() ?? import(specifier);

/** What readying is told: when it may begin, and whether a call already waits for it (readiness.ts). */
export interface ReadyingTurn {
  /** Resolves when this runtime may be readied; undefined: now. */
  wait(language: string): Promise<void> | undefined;
  /** A call for this runtime waits: what it readies is taken at once, so it runs at our priority. */
  wanted(language: string): boolean;
}

/** An engine's `readying.js`: what it readies ahead, started without the engine itself. */
interface Readying {
  prepare(how: { wanted: boolean }): Promise<void>;
  /** A launch waits for what `prepare` started: give it our priority. */
  hurry?(): void;
}

const AT_ONCE: ReadyingTurn = { wait: () => undefined, wanted: () => false };

/** The language a program's extension names, if any. */
export function languageByExtension(program: string): string | undefined {
  return EXTENSION_HINTS[extname(program).toLowerCase()];
}

/** What a debug port answered: the engine that attaches to it, and what listens (`debugpy 1.8.1`). */
export interface PortListener {
  language: string;
  runtime: string;
}

export class EngineRegistry {
  private readonly loaded = new Map<string, Promise<EngineFactory>>();
  private readonly detected = new Map<string, Promise<Availability>>();

  constructor(private readonly importModule: Importer = importBuiltInOrPackage) {}

  load(language: string): Promise<EngineFactory> {
    let pending = this.loaded.get(language);
    if (!pending) {
      pending = this.importFactory(language);
      // A failed load is not cached: installing the missing piece must not need a server restart.
      pending.catch(() => this.loaded.delete(language));
      this.loaded.set(language, pending);
    }
    return pending;
  }

  /**
   * Availability of a language. A positive answer is kept for the life of the process (probing a
   * runtime spawns processes); a negative one is asked again, so a fix needs no restart.
   */
  detect(language: string): Promise<Availability> {
    let pending = this.detected.get(language);
    if (!pending) {
      pending = this.load(language).then(
        (factory) => factory.detect().catch((e: Error): Availability => ({ available: false, reason: e.message })),
        (e: unknown): Availability => ({ available: false, reason: e instanceof Error ? e.message : String(e), install: isDebugError(e) ? e.hint : undefined }),
      );
      this.detected.set(language, pending);
      void pending.then((a) => {
        if (!a.available) this.detected.delete(language);
      });
    }
    return pending;
  }

  /**
   * Lets the engine ready what makes a launch quick (readiness.ts says when: `turn`). Resolves once
   * that is under way or waits its turn, not when it is done; never throws. An engine with a
   * `readying.js` of its own starts from it, a few small modules, without waiting for the engine
   * itself to load; any other is probed first and readied by its factory.
   */
  async prepare(language: string, turn: ReadyingTurn = AT_ONCE): Promise<void> {
    const later = turn.wait(language);
    if (later) return void later.then(() => this.prepare(language, turn));
    const readying = await this.readyingOf(language);
    // A call may have come while those modules loaded.
    const now = turn.wait(language);
    if (now) return void now.then(() => this.prepare(language, turn));
    const done = readying
      ? readying.prepare({ wanted: turn.wanted(language) })
      : // A factory readies at low priority: a launch that waited for it meanwhile hurries it.
        this.detectThenPrepare(language).then(() => turn.wanted(language) && this.hurry(language));
    // Readying is an optimisation: a launch that finds nothing ready starts the normal way.
    done.catch(() => undefined);
  }

  /** A launch of this runtime waits: what its readying started goes on at our priority. Never throws. */
  hurry(language: string): void {
    void this.readying.get(language)?.then((readying) => readying?.hurry?.());
    void this.loaded.get(language)?.then((factory) => factory.hurry?.(), () => undefined);
  }

  private readonly readying = new Map<string, Promise<Readying | undefined>>();

  private readyingOf(language: string): Promise<Readying | undefined> {
    if (!(LIGHT_READYING as readonly string[]).includes(language)) return Promise.resolve(undefined);
    let pending = this.readying.get(language);
    if (!pending) {
      pending = this.importModule(`../engines/${language}/readying.js`).then(
        (mod) => mod as Readying,
        () => undefined,
      );
      this.readying.set(language, pending);
    }
    return pending;
  }

  private async detectThenPrepare(language: string): Promise<void> {
    if (!(await this.detect(language)).available) return;
    await (await this.load(language)).prepare?.();
  }

  private async importFactory(language: string): Promise<EngineFactory> {
    if (!/^[a-z][a-z0-9-]*$/.test(language)) {
      throw new DebugError('INVALID_ARGUMENT', `"${language}" is not a language name.`, `Use one of: ${BUILT_IN_LANGUAGES.join(', ')}.`);
    }
    const builtIn = (BUILT_IN_LANGUAGES as readonly string[]).includes(language);
    const specifier = builtIn ? `../engines/${language}/index.js` : `debugbridge-engine-${language}`;
    let mod: unknown;
    try {
      mod = await this.importModule(specifier);
    } catch (e) {
      const why = e instanceof Error ? e.message : String(e);
      if (builtIn) {
        const missing = (e as NodeJS.ErrnoException).code === 'ERR_MODULE_NOT_FOUND' && why.includes(`engines/${language}/`);
        throw new DebugError(
          'ENGINE_UNAVAILABLE',
          missing ? `${language} debugging is not in this version of debugbridge yet.` : `The ${language} engine failed to load: ${why}`,
          missing ? 'languages_list shows the languages that work here.' : 'Run `debugbridge doctor` for the cause and the fix.',
        );
      }
      throw new DebugError(
        'ENGINE_UNAVAILABLE',
        `No engine for "${language}": the package debugbridge-engine-${language} is not installed.`,
        `Install it beside debugbridge: npm install debugbridge-engine-${language}`,
      );
    }
    const factory = (mod as { engine?: EngineFactory }).engine;
    if (!factory || typeof factory.create !== 'function' || typeof factory.detect !== 'function') {
      throw new DebugError('ENGINE_UNAVAILABLE', `${specifier} does not export an engine factory named "engine".`, 'Update or reinstall that engine package.');
    }
    return factory;
  }

  /** Which built-in engine's debugger listens at host:port, asked the way each greets a connection. */
  async listenerAt(host: string, port: number): Promise<PortListener> {
    const { probeDebugPort } = (await this.importModule('../engines/debugPort.js')) as { probeDebugPort(host: string, port: number): Promise<PortListener> };
    return probeDebugPort(host, port);
  }

  /** The language of a program from its extension, or from what an engine claims (e.g. a project folder). */
  async languageFor(program: string): Promise<string> {
    const byExtension = languageByExtension(program);
    if (byExtension) return byExtension;
    for (const language of BUILT_IN_LANGUAGES) {
      const factory = await this.load(language).catch(() => undefined);
      if (factory?.claims?.(program)) return language;
    }
    const isDir = existsSync(program) && statSync(program).isDirectory();
    throw new DebugError(
      'INVALID_ARGUMENT',
      `Cannot tell the language of ${program}${isDir ? ' (a folder with no project file)' : ''}.`,
      `Pass language: one of ${BUILT_IN_LANGUAGES.join(', ')}.`,
    );
  }
}
