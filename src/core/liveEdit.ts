/**
 * Live edit: the source edits the agent made on disk, applied to the running program by its engine
 * (V8's setScriptSource, CPython's code objects, .NET Edit and Continue). The engine says what
 * became of each file; the session then makes the rest follow the new lines: the breakpoints of
 * changed files go to the runtime again, cached source text is dropped, and a stopped program's
 * stop is read again (or, when the engine ran the edited top frame again, the stop it made there).
 */
import type { BreakpointRegistry } from './breakpointRegistry.js';
import type { BreakpointSync } from './breakpointSync.js';
import type { Engine, LiveEditRequest, LiveEditResult } from './engine.js';
import { DebugError } from './errors.js';
import type { SessionStateMachine } from './sessionStateMachine.js';
import type { SessionEvent, Stop } from './sessionTypes.js';
import { forgetSource } from './sourceReader.js';
import type { SessionStateName } from './types.js';

/** How long the stop an engine makes after applying (a restarted frame) is waited for. */
const RESTARTED_STOP_WAIT_MS = 10_000;

/** What an engine throws for files named in the request that the program has not loaded. */
export function notLoadedError(files: string[]): DebugError {
  return new DebugError(
    'INVALID_ARGUMENT',
    `The program has not loaded ${files.join(', ')}, so there is nothing of ${files.length === 1 ? 'it' : 'them'} to change.`,
    'A file the program loads later runs as it is on disk. Leave files out to apply every loaded file that changed.',
  );
}

export interface LiveEditAnswer {
  result: LiveEditResult;
  state: SessionStateName;
  /** The stop after the apply, read again from the new source. */
  stop?: Stop;
}

export interface LiveEditHost {
  engine(): Engine;
  /** The engine's display name, for what it cannot do. */
  readonly engineName: string;
  readonly machine: SessionStateMachine;
  readonly breakpoints: BreakpointRegistry;
  readonly sync: BreakpointSync;
  refreshStop(): Promise<void>;
  record(event: SessionEvent): void;
}

export async function applyLiveEdit(host: LiveEditHost, request: LiveEditRequest, signal?: AbortSignal): Promise<LiveEditAnswer> {
  const { machine } = host;
  machine.require(['stopped', 'running'], 'apply changes');
  const engine = host.engine();
  if (!engine.applyChanges) {
    throw new DebugError('UNSUPPORTED', `${host.engineName} cannot apply changes to a running program.`, 'session_restart runs the program again with the edited files.');
  }
  const wasStopped = machine.state === 'stopped';
  const seen = machine.stopCount;
  const result = await engine.applyChanges(request);
  const applied = result.changes.filter((c) => c.status === 'applied').map((c) => c.file);
  for (const file of applied) forgetSource(file);
  if (applied.length) {
    host.record({ type: 'changes applied', summary: `Applied changes to ${applied.length} file${applied.length === 1 ? '' : 's'}`, data: { files: applied } });
    // The breakpoints go to the runtime again while the stop is read again: neither waits for the other.
    const resync = (async () => {
      for (const file of applied) if (host.breakpoints.lineSpecs(file).length) await host.sync.file(file);
    })();
    const restop = machine.stopCount > seen ? machine.waitForStopAfter(seen, { timeoutMs: RESTARTED_STOP_WAIT_MS, signal }) : wasStopped && machine.state === 'stopped' ? host.refreshStop() : undefined;
    await Promise.all([resync, restop]);
  }
  return { result, state: machine.state, stop: machine.stop };
}
