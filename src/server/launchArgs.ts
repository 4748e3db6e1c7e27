/**
 * What session_launch and debug_probe share: the input shape and turning it into a session.
 */
import { dirname, resolve } from 'node:path';
import { z } from 'zod';
import { checkBreakpoint, type BreakpointRequest } from '../core/breakpointRegistry.js';
import { DebugError, toDebugError, type ErrorCode } from '../core/errors.js';
import { moduleOfProgram } from '../core/moduleProgram.js';
import type { Session } from '../core/session.js';
import type { SessionConfig } from '../core/sessionConfig.js';
import type { SessionManager } from '../core/sessionManager.js';
import type { ExceptionBreakpointConfig } from '../core/types.js';
import { breakpointInput, exceptionModeInput, targetInput, timeoutInput } from './schemas.js';

export const DEFAULT_LAUNCH_TIMEOUT_MS = 60_000;

export const launchInput = {
  program: z.string().min(1).describe('.py (or -m module), .js/.ts, or .NET .dll/.csproj/folder.'),
  language: z.string().optional().describe('python, node or dotnet (default: from program).'),
  args: z.array(z.string()).optional(),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()).optional(),
  stopOnEntry: z.boolean().optional(),
  breakpoints: z.array(breakpointInput).optional(),
  functionBreakpoints: z.array(z.string()).optional(),
  exceptions: exceptionModeInput,
  exceptionTypes: z.array(z.string()).optional().describe('dotnet: only these types.'),
  timeoutMs: timeoutInput,
  pythonPath: z.string().optional().describe('python with debugpy.'),
  runtimeExecutable: z.string().optional().describe('node executable.'),
  options: z.record(z.string(), z.unknown()).optional(),
  target: targetInput,
};

type LaunchArgs = z.infer<z.ZodObject<typeof launchInput>>;

export function exceptionConfig(mode: 'none' | 'uncaught' | 'all' | undefined, typeNames?: string[]): ExceptionBreakpointConfig {
  const filters = mode === 'none' ? [] : mode === 'all' ? ['uncaught', 'all'] : ['uncaught'];
  return typeNames?.length ? { filters, typeNames } : { filters };
}

/** A source file argument: absolute, under the allowed roots, a regular file when it exists. */
export function resolveFile(manager: SessionManager, file: string, cwd: string, what = 'file'): string {
  return manager.paths.resolve(file, cwd, what, 'file');
}

/** A breakpoint as the agent gave it, its file absolute (relative to cwd) and the fields it left out dropped. */
export function breakpointRequest(manager: SessionManager, fields: BreakpointRequest, cwd: string): BreakpointRequest {
  const request = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as BreakpointRequest;
  if (request.file) request.file = resolveFile(manager, request.file, cwd, 'breakpoint file');
  return request;
}

/** The breakpoints of a launch, attach, probe or test: each is checked as breakpoint_set checks it. */
export function breakpointRequests(manager: SessionManager, args: { breakpoints?: BreakpointRequest[]; functionBreakpoints?: string[] }, cwd: string): BreakpointRequest[] {
  const requests = [...(args.breakpoints ?? []).map((b) => breakpointRequest(manager, b, cwd)), ...(args.functionBreakpoints ?? []).map((f) => ({ function: f }))];
  requests.forEach((request, i) => {
    try {
      checkBreakpoint(request);
    } catch (e) {
      const error = toDebugError(e);
      throw new DebugError(error.code, `breakpoints[${i}]: ${error.message}`, error.hint);
    }
  });
  return requests;
}

/** The working folder argument (default: the server's). */
export function resolveCwd(manager: SessionManager, cwd: string | undefined): string {
  return cwd ? manager.paths.resolve(cwd, process.cwd(), 'cwd', 'directory') : process.cwd();
}

/**
 * Interpreter and runtime paths (not bare command names, which PATH finds) fall under the same
 * roots as every other path; where they link to does not count (a virtual environment's python
 * links to the system's).
 */
const EXECUTABLE_OPTIONS = ['pythonPath', 'runtimeExecutable'];

export async function launchSession(manager: SessionManager, args: LaunchArgs, signal: AbortSignal): Promise<Session> {
  if (args.target) manager.targets.definition(args.target);
  // On a target the program's files are the far side's: here they need not exist, and the program's
  // folder (mapped) is a better working folder than the server's own.
  const cwd = args.target && !args.cwd ? dirname(resolve(args.program)) : resolveCwd(manager, args.cwd);
  const module = moduleOfProgram(args.program);
  const program = module ? `-m ${module}` : args.target ? manager.paths.resolve(args.program, cwd, 'program') : manager.resolveProgram(args.program, cwd);
  const language = args.language ?? (module ? 'python' : await manager.registry.languageFor(program));
  const options: Record<string, unknown> = { ...args.options };
  if (args.pythonPath) options.pythonPath = args.pythonPath;
  if (args.runtimeExecutable) options.runtimeExecutable = args.runtimeExecutable;
  await requireKnownOptions(manager, language, options);
  for (const key of EXECUTABLE_OPTIONS) {
    const value = options[key];
    if (typeof value === 'string' && /[\\/]/.test(value)) manager.paths.requireAllowed(resolve(cwd, value), key, { followLinks: false });
  }
  const config: SessionConfig = {
    language,
    program,
    args: args.args ?? [],
    cwd,
    env: args.env ?? {},
    stopOnEntry: args.stopOnEntry ?? false,
    exceptions: exceptionConfig(args.exceptions, args.exceptionTypes),
    options,
    ...(args.target ? { target: args.target } : {}),
  };
  const session = await manager.create(config, breakpointRequests(manager, args, cwd));
  await startOrExplain(manager, session, args.timeoutMs ?? DEFAULT_LAUNCH_TIMEOUT_MS, signal);
  return session;
}

/** Engine options the engine does not read are refused, like any unknown argument (pythonPath and runtimeExecutable are options too). */
export async function requireKnownOptions(manager: SessionManager, language: string, options: Record<string, unknown>): Promise<void> {
  const known = (await manager.registry.load(language)).options;
  const unknown = known && Object.keys(options).filter((key) => !known.includes(key));
  if (!unknown?.length) return;
  throw new DebugError('INVALID_ARGUMENT', `${unknown.map((k) => `options.${k}`).join(', ')}: not an option of ${language}, which takes: ${known!.join(', ') || 'none'}.`, 'Leave it out, or check the language.');
}

/** Failures that say nothing ran: the session is dropped, there is nothing to diagnose. */
const NOTHING_RAN: ErrorCode[] = ['ENGINE_UNAVAILABLE', 'PROGRAM_NOT_FOUND', 'INVALID_ARGUMENT', 'UNSUPPORTED', 'DEBUGGING_DISABLED', 'LAUNCH_BUILD_FAILED'];

/** Starts (or restarts) a session; a failure of a run names the session so its diagnostics can be read. */
export async function startOrExplain(manager: SessionManager, session: Session, timeoutMs: number, signal: AbortSignal, how: 'start' | 'restart' = 'start'): Promise<void> {
  try {
    if (how === 'restart') await session.restart(timeoutMs, signal);
    else await session.start(timeoutMs, signal);
  } catch (e) {
    const error = toDebugError(e, 'LAUNCH_FAILED');
    if (NOTHING_RAN.includes(error.code)) {
      manager.remove(session);
      throw error;
    }
    const tail = session.output.tail().trim();
    const output = tail ? `\nProgram output:\n${tail}` : '';
    throw new DebugError(
      error.code,
      `${error.message}${output}`,
      `${error.hint ? `${error.hint} ` : ''}session_diagnostics with sessionId "${session.id}" shows the adapter's log.`,
      error.details,
    );
  }
}
