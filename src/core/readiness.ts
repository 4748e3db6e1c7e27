/**
 * What the server readies ahead of a launch, and when. Readying (a spare debugpy adapter, a ready
 * Python debuggee, a .NET debugger host) makes launches quick, but it costs processes and CPU: so a
 * runtime is readied only when it is in play — the working folder holds its project files — and
 * only once the client has what it needs for its first call (initialize and tools/list answered),
 * at low priority (each engine's `prepare`). A runtime a session used is readied by its engine after
 * that session (the next ready debuggee, the next host), whatever the folder holds.
 */
import { readdirSync } from 'node:fs';
import type { EngineRegistry } from './engineRegistry.js';

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

export class Readiness {
  private armed = false;

  constructor(private readonly registry: EngineRegistry) {}

  /**
   * The client can make its first call now: ready the runtimes in play in `folder`, once. Resolves
   * when their readying is under way (its first processes started), so the caller can go on with
   * its own loading while they run beside it.
   */
  async arm(folder: string): Promise<void> {
    if (this.armed) return;
    this.armed = true;
    await Promise.all(runtimesInPlay(folder).map((language) => this.registry.prepare(language)));
  }
}
