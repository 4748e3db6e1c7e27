/**
 * The steps of a launch or attach after the adapter is there. Each wait also ends when the request
 * is cancelled or debugpy goes away, and whatever fails comes out as the typed error the agent reads.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { Engine } from '../../core/engine.js';
import { DebugError, type ErrorCode } from '../../core/errors.js';
import type { AttachConfig, BreakpointBinding, BreakpointSpec, LaunchConfig, LaunchResult } from '../../core/types.js';
import type { DapClient } from '../../dap/dapClient.js';
import type { DapArguments } from '../../dap/dapProtocol.js';
import type { LaunchSteps } from './launchSteps.js';
import type { ReadyDebuggee } from './readyDebuggee.js';
import { writeLaunchSpec } from './readyLauncher.js';
import { requestError } from './requestErrors.js';

export type Guard = <T>(work: Promise<T>) => Promise<T>;

type Configurable = Pick<Engine, 'setBreakpoints' | 'setFunctionBreakpoints' | 'setExceptionBreakpoints'>;

/** One start of the engine: its connection, its configuration requests and how it hears back. */
export interface Starting {
  engine: Configurable;
  client: DapClient;
  signal?: AbortSignal;
  steps?: LaunchSteps;
  stderrHint(): string | undefined;
  /** debugpy answered `initialize`: what it can do decides what the configuration sends. */
  capabilitiesKnown(capabilities: DebugProtocol.Capabilities | undefined): void;
  /** An expression evaluated in the debuggee before its program runs (answered before configurationDone goes; its failure is ignored). */
  prelude?: string;
}

/** initialize → launch/attach → (initialized) breakpoints, filters → configurationDone → answer. */
export function startDebugpy(
  start: Starting,
  capabilities: Promise<DebugProtocol.Capabilities | undefined>,
  command: 'launch' | 'attach',
  args: DapArguments<'launch'> & DapArguments<'attach'>,
  config: LaunchConfig | AttachConfig,
): Promise<LaunchResult> {
  const { client, steps } = start;
  return guardedStart(client, command, start.signal, start.stderrHint, async (guard) => {
    start.capabilitiesKnown(await guard(capabilities));
    steps?.mark('initialize');
    const initialized = client.once('initialized');
    const started = client.request(command, args, { timeoutMs: 60_000 });
    started.catch(() => {}); // awaited below; an early failure also ends the wait for `initialized`
    await guard(Promise.race([initialized, started]));
    steps?.mark('initialized');
    return configureAndRun(start, started, config, guard);
  });
}

/** Names the program, arms its breakpoints and lets the ready debuggee (waiting for configurationDone) become it. */
export function startReadyDebuggee(start: Starting, debuggee: ReadyDebuggee, config: LaunchConfig): Promise<LaunchResult> {
  writeLaunchSpec(debuggee.specPath, { program: config.program, args: config.args, cwd: config.cwd });
  return guardedStart(start.client, 'launch', start.signal, start.stderrHint, async (guard) => {
    start.capabilitiesKnown(await guard(debuggee.adapter.capabilities));
    return configureAndRun(start, debuggee.launched, config, guard);
  });
}

async function guardedStart<T>(
  client: DapClient,
  command: 'launch' | 'attach',
  signal: AbortSignal | undefined,
  stderrHint: () => string | undefined,
  work: (guard: Guard) => Promise<T>,
): Promise<T> {
  const failure: ErrorCode = command === 'launch' ? 'LAUNCH_FAILED' : 'ATTACH_FAILED';
  const cancelled = rejectOnAbort(signal);
  const lost = new Promise<never>((_, reject) =>
    client.onClose((reason) => reject(new DebugError(failure, `debugpy went away during ${command}${reason ? `: ${reason.message}` : ''}.`, stderrHint()))),
  );
  try {
    return await work((step) => Promise.race([step, cancelled, lost]));
  } catch (e) {
    throw requestError(e, failure, stderrHint());
  }
}

/**
 * Breakpoints, filters, the prelude and configurationDone go out back to back, every request before
 * the first answer: debugpy handles them in order, so they are armed before the program runs. Then
 * the answer to the launch (or attach) that `started` waits for.
 */
async function configureAndRun({ engine, client, steps, prelude }: Starting, started: Promise<unknown>, config: LaunchConfig | AttachConfig, guard: Guard): Promise<LaunchResult> {
  const byFile = new Map<string, BreakpointSpec[]>();
  for (const spec of config.breakpoints) byFile.set(spec.file, [...(byFile.get(spec.file) ?? []), spec]);
  const bound: Promise<BreakpointBinding[]>[] = [...byFile].map(([file, specs]) => engine.setBreakpoints(file, specs));
  if (config.functionBreakpoints.length) bound.push(engine.setFunctionBreakpoints(config.functionBreakpoints));
  const configured = Promise.all([Promise.all(bound), engine.setExceptionBreakpoints(config.exceptions)]);
  configured.catch(() => {}); // awaited below, after the prelude's answer
  // pydevd runs a frameless evaluate on a thread of its own: its answer comes before the program may run.
  if (prelude) await guard(client.request('evaluate', { expression: prelude, context: 'watch' }).catch(() => undefined));
  const done = client.request('configurationDone', undefined);
  done.catch(() => {});
  const [bindings] = await guard(configured);
  steps?.mark('configured');
  await guard(done);
  steps?.mark('configurationDone');
  await guard(started);
  steps?.mark('launched');
  return { breakpoints: bindings.flat() };
}

export function startCancelled(): DebugError {
  return new DebugError('CANCELLED', 'Cancelled while starting the Python program.', 'Start it again when ready.');
}

export function rejectOnAbort(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    if (!signal) return;
    const abort = () => reject(startCancelled());
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}

export function delay(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms).unref());
}
