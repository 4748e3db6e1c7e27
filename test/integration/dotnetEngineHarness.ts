/** Test harness: a dotnet engine with a context that records events, and waits on them. */
import type { Engine, EngineContext, EngineEvent } from '../../src/core/engine.js';
import type { LaunchConfig } from '../../src/core/types.js';
import { engine as dotnetEngine } from '../../src/engines/dotnet/index.js';
import { launchConfig as sharedLaunchConfig } from '../support/engineHarness.js';

export class RecordingContext implements EngineContext {
  readonly events: EngineEvent[] = [];
  readonly logs: string[] = [];
  private waiters: { predicate: (e: EngineEvent) => boolean; resolve: (e: EngineEvent) => void }[] = [];

  emit(event: EngineEvent): void {
    this.events.push(event);
    for (const w of [...this.waiters]) {
      if (w.predicate(event)) {
        this.waiters.splice(this.waiters.indexOf(w), 1);
        w.resolve(event);
      }
    }
  }

  log(level: string, message: string): void {
    this.logs.push(`${level}: ${message}`);
  }

  output(category?: 'stdout' | 'stderr' | 'console'): string {
    return this.events
      .filter((e): e is Extract<EngineEvent, { type: 'output' }> => e.type === 'output' && (!category || e.category === category))
      .map((e) => e.text)
      .join('');
  }

  waitFor<T extends EngineEvent['type']>(
    type: T,
    predicate: (e: Extract<EngineEvent, { type: T }>) => boolean = () => true,
    timeoutMs = 20_000,
  ): Promise<Extract<EngineEvent, { type: T }>> {
    const test = (e: EngineEvent): boolean => e.type === type && predicate(e as Extract<EngineEvent, { type: T }>);
    const seen = this.events.find(test);
    if (seen) return Promise.resolve(seen as Extract<EngineEvent, { type: T }>);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${type} event within ${timeoutMs} ms; saw ${this.events.map((e) => e.type).join(',')}`)), timeoutMs);
      this.waiters.push({
        predicate: test,
        resolve: (e) => {
          clearTimeout(timer);
          resolve(e as Extract<EngineEvent, { type: T }>);
        },
      });
    });
  }
}

export function createEngine(): { engine: Engine; context: RecordingContext } {
  const context = new RecordingContext();
  return { engine: dotnetEngine.create(context), context };
}

export function launchConfig(program: string, overrides: Partial<LaunchConfig> = {}): LaunchConfig {
  return sharedLaunchConfig(program, { cwd: process.cwd(), ...overrides });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
