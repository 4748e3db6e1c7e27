/**
 * Starting an engine for a session: launch or attach with every breakpoint armed, bounded by a
 * time limit, cancelled by the client or by session_stop. A start that times out or is cancelled
 * answers at once with a typed error; the caller then ends the engine.
 */
import type { BreakpointRegistry } from './breakpointRegistry.js';
import { callSignal } from './callSignal.js';
import type { Engine } from './engine.js';
import { DebugError } from './errors.js';
import type { SessionConfig } from './sessionConfig.js';
import type { LaunchResult } from './types.js';

export interface StartLimits {
  timeoutMs: number;
  /** The client's request. */
  signal?: AbortSignal;
  /** The session was stopped meanwhile. */
  stopped: AbortSignal;
}

export async function startEngine(engine: Engine, config: SessionConfig, breakpoints: BreakpointRegistry, limits: StartLimits): Promise<LaunchResult> {
  const call = callSignal([limits.stopped, limits.signal], limits.timeoutMs);
  const common = {
    breakpoints: breakpoints.lineSpecs(),
    functionBreakpoints: breakpoints.functionSpecs(),
    exceptions: config.exceptions,
    options: config.options,
  };
  const { program, args, cwd, env, stopOnEntry } = config;
  try {
    const work = config.attach ? engine.attach({ ...common, ...config.attach }, call.signal) : engine.launch({ ...common, program, args, cwd, env, stopOnEntry }, call.signal);
    return await raceAbort(work, call.signal, () =>
      call.timedOut
        ? new DebugError('TIMEOUT', `The program did not start within ${limits.timeoutMs} ms; its processes were ended.`, 'Check session_diagnostics and session_output, or raise timeoutMs.')
        : new DebugError('CANCELLED', `The ${config.attach ? 'attach' : 'launch'} was cancelled${limits.stopped.aborted ? ': the session was stopped' : ''}.`, 'Launch again when ready.'),
    );
  } finally {
    call.dispose();
  }
}

function raceAbort<T>(work: Promise<T>, signal: AbortSignal, makeError: () => Error): Promise<T> {
  if (signal.aborted) return Promise.reject(makeError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(makeError());
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}
