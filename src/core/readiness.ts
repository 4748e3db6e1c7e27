/**
 * What the server readies ahead of a launch, and when. Readying (a spare debugpy adapter, a ready
 * Python debuggee, a .NET debugger host) makes launches quick, but it costs processes and CPU: so a
 * runtime is readied only when it is in play — the working folder holds its project files — and
 * only once the client has what it needs for its first call (initialize and tools/list answered),
 * at low priority (each engine's `prepare`). A runtime a session used is readied by its engine after
 * that session (the next ready debuggee, the next host), whatever the folder holds.
 *
 * Readying never competes with a call: while the client's calls are in flight (and for a moment
 * after the client's last message, tools/list too), a runtime waits its turn, unless the call waiting
 * is a launch of that very runtime, which takes over what is readied as soon as it can (so that is
 * readied at once, at our priority).
 */
import { readdirSync } from 'node:fs';
import { languageByExtension, type EngineRegistry, type ReadyingTurn } from './engineRegistry.js';

/** File names at the top of a working folder that say a project of the runtime lives there. */
const PROJECT_FILES: Record<string, RegExp> = {
  python: /^(pyproject\.toml|setup\.py|setup\.cfg|Pipfile|requirements[\w.-]*\.txt|.+\.pyw?)$/i,
  node: /^(package\.json|tsconfig\.json|.+\.(m|c)?js)$/i,
  dotnet: /^(.+\.(cs|fs|vb)proj|.+\.slnx?|global\.json|Directory\.Build\.props)$/i,
};

/** The runtimes whose project files the folder holds (its top level only: a glance, not a search). */
export function runtimesInPlay(folder: string): string[] {
  let names: string[];
  try {
    names = readdirSync(folder);
  } catch {
    return [];
  }
  return Object.keys(PROJECT_FILES).filter((language) => names.some((name) => PROJECT_FILES[language].test(name)));
}

/** A tool call the client waits for. */
export interface CallInFlight {
  tool: string;
  args: Record<string, unknown>;
}

/** The client's calls, as the server's transport sees them (server/callActivity.ts). */
export interface CallActivity {
  inFlight(): CallInFlight[];
  /** Told of each call as it comes in (one listener). */
  onCall?: (call: CallInFlight) => void;
  /** Resolves once no call has been in flight for a moment; undefined when that is now. */
  quiet(): Promise<void> | undefined;
}

/** The runtime a launch call names (its language, or its program's extension). */
function launchedLanguage(call: CallInFlight): string | undefined {
  if (call.tool !== 'session_launch') return undefined;
  const { language, program } = call.args;
  if (typeof language === 'string') return language;
  return typeof program === 'string' ? languageByExtension(program) : undefined;
}

export class Readiness implements ReadyingTurn {
  private arming?: Promise<void>;

  constructor(
    private readonly registry: EngineRegistry,
    private readonly calls: CallActivity = { inFlight: () => [], quiet: () => undefined },
  ) {
    // A launch that comes while its runtime is being readied at low priority (right after the
    // tool list) will take what is readied: from now on that goes on at our priority.
    calls.onCall = (call) => {
      const language = launchedLanguage(call);
      if (!language) return;
      registry.hurry(language);
      // One that waited its turn is wanted now.
      this.waitingTurn.get(language)?.();
      this.waitingTurn.delete(language);
    };
  }

  /** Runtimes waiting for the calls to be quiet, each with what lets it go at once. */
  private readonly waitingTurn = new Map<string, () => void>();

  wanted(language: string): boolean {
    return this.calls.inFlight().some((call) => launchedLanguage(call) === language);
  }

  wait(language: string): Promise<void> | undefined {
    if (this.wanted(language)) return undefined;
    const quiet = this.calls.quiet();
    if (!quiet) return undefined;
    return new Promise((resolve) => {
      this.waitingTurn.set(language, resolve);
      void quiet.then(resolve);
    });
  }

  /**
   * The client can make its first call now: ready the runtimes in play in `folder`, once. Resolves
   * when their readying is under way (its first processes started) or waits its turn, so the caller
   * can go on with its own loading while they run beside it.
   */
  arm(folder: string): Promise<void> {
    this.arming ??= Promise.all(runtimesInPlay(folder).map((language) => this.registry.prepare(language, this))).then(() => undefined);
    return this.arming;
  }
}
