/**
 * The session's breakpoints kept in step with the runtime while a run is active: a change to a
 * file's line breakpoints, or to the function breakpoints, sends that whole list again and applies
 * the bindings the runtime answers. run_to's one-shot breakpoint goes the same way and is no
 * breakpoint of the user's.
 */
import type { BreakpointRecord, BreakpointRegistry } from './breakpointRegistry.js';
import type { Engine, EngineEvent } from './engine.js';
import { DebugError } from './errors.js';
import type { BreakpointBinding } from './types.js';

type StoppedEvent = Extract<EngineEvent, { type: 'stopped' }>;

export class BreakpointSync {
  constructor(
    private readonly registry: BreakpointRegistry,
    private readonly engine: () => Engine,
    /** A run is active: what changes goes to its runtime. */
    private readonly active: () => boolean,
  ) {}

  /** A breakpoint was set or changed: its list goes again. */
  async send(record: BreakpointRecord): Promise<void> {
    if (record.kind === 'function') await this.functions();
    else await this.file(record.file!);
  }

  /** Breakpoints were removed: each list they were in goes again. */
  async sendWithout(removed: BreakpointRecord[]): Promise<void> {
    for (const file of new Set(removed.flatMap((r) => (r.file ? [r.file] : [])))) await this.file(file);
    if (removed.some((r) => r.kind === 'function')) await this.functions();
  }

  async file(file: string): Promise<BreakpointBinding[]> {
    const bindings = await this.engine().setBreakpoints(file, this.registry.lineSpecs(file));
    for (const b of bindings) this.registry.applyBinding(b);
    return bindings;
  }

  private async functions(): Promise<void> {
    const bindings = await this.engine().setFunctionBreakpoints(this.registry.functionSpecs());
    for (const b of bindings) this.registry.applyBinding(b);
  }

  /** Runs `go` with a one-shot breakpoint at file:line, removed once `go` answered; a line without code is an error. */
  async withOneShot<T>(file: string, line: number, go: () => Promise<T>): Promise<T> {
    const temp = this.registry.add({ file, line }, true);
    try {
      const [binding] = (await this.file(file)).filter((b) => b.id === temp.id);
      if (binding && !binding.verified) {
        throw new DebugError('INVALID_ARGUMENT', `Cannot run to ${file}:${line}: ${binding.message ?? 'no code there'}.`, 'Pick a line with code (inspect_source shows the file).');
      }
      return await go();
    } finally {
      this.registry.remove(temp.id);
      if (this.active()) await this.file(file).catch(() => undefined);
    }
  }

  /** A stop at the one-shot breakpoint alone is reason 'run to'; its id is not among the hits. */
  withoutOneShotHits(event: StoppedEvent): StoppedEvent {
    const hits = event.hitBreakpointIds ?? [];
    const userHits = hits.filter((id) => !this.registry.get(id)?.temporary);
    if (userHits.length === hits.length) return event;
    return { ...event, reason: userHits.length ? event.reason : 'run to', hitBreakpointIds: userHits };
  }
}
