/**
 * Turns a runtime's bare "stopped" event into the stop the agent reads: its current frame
 * (core/currentFrame.ts), source lines around it, exception details and a compact summary of that
 * frame's locals.
 */
import type { Engine, EngineEvent } from './engine.js';
import { currentFrameIndex } from './currentFrame.js';
import { exceptionAutopsy } from './exceptionAutopsy.js';
import type { Stop, ValueSummary } from './sessionTypes.js';
import { readSourceWindow, windowOf, type SourceLine } from './sourceReader.js';
import type { FrameInfo } from './types.js';
import { summaryText } from './valueText.js';

const SUMMARY_LOCALS = 12;
const FRAMES_READ = 20;
const CONTEXT_BEFORE = 2;
const CONTEXT_AFTER = 2;

type StoppedEvent = Extract<EngineEvent, { type: 'stopped' }>;

export interface BuiltStop {
  stop: Stop;
  /** The top frames fetched while building, kept so the current frame needs no second round trip. */
  frames: FrameInfo[];
  /** How many frames the thread has, when the engine says. */
  totalFrames?: number;
}

export async function buildStop(engine: Engine, event: StoppedEvent): Promise<BuiltStop> {
  const levels = Math.max(FRAMES_READ, (event.frameIndex ?? 0) + 1);
  const stack = await engine.stackTrace(event.threadId, 0, levels).catch(() => ({ frames: [] as FrameInfo[], totalFrames: undefined }));
  const { frames } = stack;
  const frameIndex = currentFrameIndex(frames, event.frameIndex);
  const top = frames[frameIndex];
  const stop: Stop = {
    reason: event.reason,
    threadId: event.threadId,
    threadName: event.threadName,
    frameIndex,
    frame: top
      ? { name: top.name, file: top.file, line: top.line, column: top.column }
      : { name: '<unknown>', line: 0, column: 0 },
    hitBreakpointIds: event.hitBreakpointIds ?? [],
    description: event.description,
    at: Date.now(),
  };
  const [source, locals, exception] = await Promise.all([
    top?.file ? sourceContext(engine, top.file, top.line) : undefined,
    top ? summarizeLocals(engine, top.id) : undefined,
    event.reason === 'exception' ? exceptionDetails(engine, event) : event.exception,
  ]);
  if (source) stop.source = source;
  if (locals) {
    stop.locals = locals.shown;
    if (locals.omitted) stop.localsOmitted = locals.omitted;
  }
  if (exception) stop.exception = event.reason === 'exception' ? exceptionAutopsy(exception, stack, stop.frame) : exception;
  return { stop, frames, totalFrames: stack.totalFrames };
}

/** The stop's lines from the file here, else from where the program runs (a target's own file). */
async function sourceContext(engine: Engine, file: string, line: number): Promise<SourceLine[] | undefined> {
  const here = readSourceWindow(file, line, CONTEXT_BEFORE, CONTEXT_AFTER);
  if (here || !engine.sourceLines) return here;
  const there = await engine.sourceLines(file).catch(() => undefined);
  return there && windowOf(there, line, CONTEXT_BEFORE, CONTEXT_AFTER).lines;
}

async function exceptionDetails(engine: Engine, event: StoppedEvent) {
  if (event.exception?.type && event.exception.message !== undefined) return event.exception;
  const info = await engine.exceptionInfo(event.threadId).catch(() => undefined);
  return { ...event.exception, ...info };
}

/**
 * A frame's first locals, as the stop shows them: its own, then (while there is room) the values it
 * uses from enclosing functions, as Visual Studio lists a lambda's captured variables among its
 * locals. A test's callback or an event handler often has none of its own: what it reads is in its
 * closure. A captured function or class is code it calls, not state it reads: left to inspect_variables.
 */
export async function summarizeLocals(engine: Engine, frameId: number): Promise<{ shown: ValueSummary[]; omitted: number } | undefined> {
  try {
    const scopes = await engine.scopes(frameId);
    const own = scopes.find((s) => !s.expensive);
    if (!own) return undefined;
    const vars = (await engine.variables(own.ref, 0, SUMMARY_LOCALS + 1)).filter((v) => !isGroupingNode(v.name));
    let total = own.namedVariables ?? vars.length;
    const room = SUMMARY_LOCALS - vars.length;
    if (room > 0) {
      const captured = scopes.filter((s) => s.captured && s !== own);
      const read = await Promise.all(captured.map((s) => engine.variables(s.ref, 0, room + 1)));
      // Innermost first: a name an inner function declares hides the outer one.
      for (const value of read.flat()) {
        if (value.type === 'function' || vars.some((seen) => seen.name === value.name)) continue;
        vars.push(value);
        total += 1;
      }
    }
    const shown = vars.slice(0, SUMMARY_LOCALS).map((v) => ({ name: v.name, value: summaryText(v.value), type: v.type }));
    return { shown, omitted: Math.max(0, total - shown.length) };
  } catch {
    return undefined;
  }
}

/** A frame's last locals past its first ones (SUMMARY_LOCALS of each end): the innermost declared, a loop's variable among them. */
export async function lastLocals(engine: Engine, frameId: number): Promise<ValueSummary[]> {
  try {
    const scope = (await engine.scopes(frameId)).find((s) => !s.expensive);
    const total = scope?.namedVariables ?? 0;
    if (!scope || total <= SUMMARY_LOCALS) return [];
    const start = Math.max(SUMMARY_LOCALS, total - SUMMARY_LOCALS);
    const vars = (await engine.variables(scope.ref, start, total - start)).filter((v) => !isGroupingNode(v.name));
    return vars.map((v) => ({ name: v.name, value: summaryText(v.value), type: v.type }));
  } catch {
    return [];
  }
}

/** Adapters add pseudo-entries that group members ("special variables"); they are not values. */
export function isGroupingNode(name: string): boolean {
  return /^(special|function|class|protected) variables$/.test(name);
}
