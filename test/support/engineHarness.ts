/**
 * Drives an engine directly, as the core would: a context that records every event, fixtures found
 * by name, lines found by `BP:name` markers, launch configs with defaults.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine, EngineEvent, EngineFactory } from '../../src/core/engine.js';
import type { BreakpointSpec, LaunchConfig } from '../../src/core/types.js';
import { markerLine } from '../../src/demo/markers.js';

export { isAlive as processAlive } from './processTree.js';

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

/** 1-based line of the `BP:<marker>` comment in a file. */
export function lineOf(file: string, marker: string): number {
  return markerLine(file, `BP:${marker}`);
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

/** Fixtures of one language and engines that `disposeAll` ends. */
export function engineHarness(factory: EngineFactory, fixtureFolder: string) {
  const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', fixtureFolder);
  const created: Engine[] = [];
  return {
    fixturesDir,
    fixture: (name: string) => join(fixturesDir, name),
    createRun(): Run {
      const recorder = new Recorder();
      const engine = factory.create(recorder.context);
      created.push(engine);
      return { engine, recorder };
    },
    async disposeAll(): Promise<void> {
      await Promise.all(created.splice(0).map((e) => e.dispose()));
    },
  };
}
