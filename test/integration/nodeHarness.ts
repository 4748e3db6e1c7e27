/**
 * Drives the Node.js engine directly, as the core would: a context that records every event,
 * fixtures found by name, lines found by `// BP:name` markers.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine, EngineEvent } from '../../src/core/engine.js';
import type { BreakpointSpec, LaunchConfig } from '../../src/core/types.js';
import { engine as nodeEngine } from '../../src/engines/node/index.js';

export const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'node');

export function fixture(name: string): string {
  return join(fixturesDir, name);
}

/** 1-based line of the `// BP:<marker>` comment in a fixture. */
export function lineOf(file: string, marker: string): number {
  const index = readFileSync(file, 'utf8')
    .split('\n')
    .findIndex((line) => new RegExp(`BP:${marker}\\b`).test(line));
  if (index < 0) throw new Error(`no BP:${marker} in ${file}`);
  return index + 1;
}

type EventOf<T extends EngineEvent['type']> = Extract<EngineEvent, { type: T }>;

export class Recorder {
  readonly events: EngineEvent[] = [];
  private waiters: (() => void)[] = [];

  readonly context = {
    emit: (event: EngineEvent) => {
      this.events.push(event);
      for (const wake of this.waiters.splice(0)) wake();
    },
    log: () => {},
  };

  of<T extends EngineEvent['type']>(type: T): EventOf<T>[] {
    return this.events.filter((e): e is EventOf<T> => e.type === type);
  }

  output(category?: 'stdout' | 'stderr' | 'console'): string {
    return this.of('output')
      .filter((e) => !category || e.category === category)
      .map((e) => e.text)
      .join('');
  }

  /** Waits for the `nth` (1-based) event of a type, counting from the start of the run. */
  async next<T extends EngineEvent['type']>(type: T, nth: number, timeoutMs = 15_000): Promise<EventOf<T>> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.of(type)[nth - 1];
      if (found) return found;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${type} #${nth} within ${timeoutMs} ms; events: ${JSON.stringify(this.events.slice(-10))}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }
}

export interface Run {
  engine: Engine;
  recorder: Recorder;
}

let nextBreakpointId = 1;

export function breakpointAt(file: string, marker: string, extra: Partial<BreakpointSpec> = {}): BreakpointSpec {
  return { id: nextBreakpointId++, file, line: lineOf(file, marker), ...extra };
}

export function launchConfig(program: string, overrides: Partial<LaunchConfig> = {}): LaunchConfig {
  return {
    program,
    args: [],
    cwd: dirname(program),
    env: {},
    stopOnEntry: false,
    breakpoints: [],
    functionBreakpoints: [],
    exceptions: { filters: ['uncaught'] },
    options: {},
    ...overrides,
  };
}

const created: Engine[] = [];

/** Creates an engine with a recording context; `disposeAll` ends every one made. */
export function createRun(): Run {
  const recorder = new Recorder();
  const engine = nodeEngine.create(recorder.context);
  created.push(engine);
  return { engine, recorder };
}

export async function disposeAll(): Promise<void> {
  await Promise.all(created.splice(0).map((e) => e.dispose()));
}

/** Whether /proc still shows a live (non-zombie) process with this pid. */
export function processAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Locals of the top frame's first scope, by name. */
export async function topLocals(engine: Engine): Promise<Map<string, { value: string; type?: string; ref: number }>> {
  const { frames } = await engine.stackTrace(1, 0, 1);
  const [scope] = await engine.scopes(frames[0].id);
  return new Map((await engine.variables(scope.ref)).map((v) => [v.name, v]));
}
