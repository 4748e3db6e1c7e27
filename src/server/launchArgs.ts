/**
 * What session_launch and debug_probe share: the input shape and turning it into a session.
 */
import { isAbsolute, resolve } from 'node:path';
import { z } from 'zod';
import type { BreakpointRequest } from '../core/breakpointRegistry.js';
import { DebugError, toDebugError, type ErrorCode } from '../core/errors.js';
import type { Session, SessionConfig } from '../core/session.js';
import type { SessionManager } from '../core/sessionManager.js';
import type { ExceptionBreakpointConfig } from '../core/types.js';
import { breakpointInput, exceptionModeInput, timeoutInput } from './schemas.js';

export const DEFAULT_LAUNCH_TIMEOUT_MS = 60_000;

export const launchInput = {
  program: z.string().min(1).describe('The program: a .py file, a .js file, a .NET .dll / .csproj / project folder.'),
  language: z.string().optional().describe('python, node or dotnet; guessed from the program when left out.'),
  args: z.array(z.string()).optional().describe('Command-line arguments for the program.'),
  cwd: z.string().optional().describe('Working directory (default: the server\'s).'),
  env: z.record(z.string(), z.string()).optional().describe('Extra environment variables for the program.'),
  stopOnEntry: z.boolean().optional().describe('Stop before the first line of user code.'),
  breakpoints: z.array(breakpointInput).optional().describe('Breakpoints armed before the program runs.'),
  functionBreakpoints: z.array(z.string()).optional().describe('Function names to break in (where the runtime supports it).'),
  exceptions: exceptionModeInput,
  exceptionTypes: z.array(z.string()).optional().describe('dotnet: only these exception type names.'),
  timeoutMs: timeoutInput(DEFAULT_LAUNCH_TIMEOUT_MS),
  pythonPath: z.string().optional().describe('python: the interpreter to use (needs debugpy).'),
  runtimeExecutable: z.string().optional().describe('node / dotnet: the runtime executable to use.'),
  options: z.record(z.string(), z.unknown()).optional().describe('Engine-specific launch options, passed through.'),
};

type LaunchArgs = z.infer<z.ZodObject<typeof launchInput>>;

export function exceptionConfig(mode: 'none' | 'uncaught' | 'all' | undefined, typeNames?: string[]): ExceptionBreakpointConfig {
  const filters = mode === 'none' ? [] : mode === 'all' ? ['uncaught', 'all'] : ['uncaught'];
  return typeNames?.length ? { filters, typeNames } : { filters };
}

export function resolveFile(file: string, cwd: string): string {
  return isAbsolute(file) ? file : resolve(cwd, file);
}

export function breakpointRequests(args: Pick<LaunchArgs, 'breakpoints' | 'functionBreakpoints'>, cwd: string): BreakpointRequest[] {
  return [
    ...(args.breakpoints ?? []).map((b) => ({ ...b, file: resolveFile(b.file, cwd) })),
    ...(args.functionBreakpoints ?? []).map((f) => ({ function: f })),
  ];
}

export async function launchSession(manager: SessionManager, args: LaunchArgs, signal: AbortSignal): Promise<Session> {
  const cwd = args.cwd ? resolve(args.cwd) : process.cwd();
  const program = manager.resolveProgram(args.program, cwd);
  const language = args.language ?? (await manager.registry.languageFor(program));
  const options: Record<string, unknown> = { ...args.options };
  if (args.pythonPath) options.pythonPath = args.pythonPath;
  if (args.runtimeExecutable) options.runtimeExecutable = args.runtimeExecutable;
  const config: SessionConfig = {
    language,
    program,
    args: args.args ?? [],
    cwd,
    env: args.env ?? {},
    stopOnEntry: args.stopOnEntry ?? false,
    exceptions: exceptionConfig(args.exceptions, args.exceptionTypes),
    options,
  };
  const session = await manager.create(config, breakpointRequests(args, cwd));
  await startOrExplain(manager, session, args.timeoutMs ?? DEFAULT_LAUNCH_TIMEOUT_MS, signal);
  return session;
}

/** Failures that say nothing ran: the session is dropped, there is nothing to diagnose. */
const NOTHING_RAN: ErrorCode[] = ['ENGINE_UNAVAILABLE', 'PROGRAM_NOT_FOUND', 'INVALID_ARGUMENT', 'UNSUPPORTED', 'DEBUGGING_DISABLED', 'LAUNCH_BUILD_FAILED'];

/** Starts a session; a failure of a run names the session so its diagnostics can be read. */
export async function startOrExplain(manager: SessionManager, session: Session, timeoutMs: number, signal: AbortSignal): Promise<void> {
  try {
    await session.start(timeoutMs, signal);
  } catch (e) {
    const error = toDebugError(e, 'LAUNCH_FAILED');
    if (NOTHING_RAN.includes(error.code)) {
      manager.remove(session);
      throw error;
    }
    const tail = session.outputTail().trim();
    const output = tail ? `\nProgram output:\n${tail}` : '';
    throw new DebugError(
      error.code,
      `${error.message}${output}`,
      `${error.hint ? `${error.hint} ` : ''}session_diagnostics with sessionId "${session.id}" shows the adapter's log.`,
      error.details,
    );
  }
}
