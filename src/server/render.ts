/**
 * The one renderer: every text the model reads is written here, short and in one style.
 * Structured results carry the full data; the text is what an agent needs to decide the next call.
 */
import { basename } from 'node:path';
import { statusOf, type BreakpointRecord } from '../core/breakpointRegistry.js';
import { describeExit, verdictWord } from '../core/eventSummary.js';
import { columnLabel, traceColumns } from '../core/traceLog.js';
import { foldFrames, isExternal, type StackEntry } from '../core/frameFolding.js';
import type { VariablesAnswer } from '../core/inspector.js';
import type { SourceLine } from '../core/sourceReader.js';
import type { ExceptionAutopsy, SessionEvent, Stop, WaitResult } from '../core/sessionTypes.js';
import type { Availability, EngineCapabilities, ExceptionCause, FrameInfo, RunVerdict, ThreadInfo } from '../core/types.js';
import { DEFAULT_MAX_CHARS, fitText, withWatches } from './renderAnswers.js';

export function where(file: string | undefined, line: number): string {
  return `${file ? basename(file) : '<no source>'}:${line}`;
}

export function renderSourceLines(lines: SourceLine[]): string {
  const width = String(lines[lines.length - 1]?.line ?? 0).length;
  return lines.map((l) => `${l.current ? '>' : ' '} ${String(l.line).padStart(width + 1)} | ${l.text}`).join('\n');
}

function stopHeadline(stop: Stop): string {
  const place = `${stop.frame.name} (${where(stop.frame.file, stop.frame.line)}), thread ${stop.threadId}${stop.threadName ? ` (${stop.threadName})` : ''}`;
  const at = `in ${place}`;
  const ids = stop.hitBreakpointIds.map((id) => `#${id}`).join(', ');
  switch (stop.reason) {
    case 'breakpoint':
      return `Stopped at breakpoint ${ids || ''} ${at}`.replace('  ', ' ');
    case 'function breakpoint':
      return `Stopped at function breakpoint ${ids} ${at}`;
    case 'step':
      return `Stepped to ${place}`;
    case 'pause':
      return `Paused ${at}`;
    case 'run to':
      return `Ran to ${place}`;
    case 'goto':
      return `Next statement moved: ${place}`;
    case 'restart frame':
      return `Frame restarted: ${place}`;
    case 'entry':
      return `Stopped on entry ${at}`;
    case 'exception': {
      const ex = stop.exception;
      if (ex?.kind === TEST_FAILURE_KIND) return `Stopped where the test fails, in ${place}: ${ex.type ?? 'exception'}`;
      const what = ex ? `${ex.type ?? 'exception'}${ex.message ? `: ${ex.message}` : ''}` : 'an exception';
      const thrown = ex?.thrownAt;
      const elsewhere = thrown && (thrown.file !== stop.frame.file || thrown.line !== stop.frame.line) ? `; thrown at ${where(thrown.file, thrown.line)}` : '';
      return `Stopped on ${ex?.kind ? `${ex.kind} ` : ''}exception ${what} ${at}${elsewhere}`;
    }
    default:
      return `Stopped (${stop.reason}) ${at}`;
  }
}

/** A value and, when it changed since the stop before, what it was: `12.5 → 15.0`. */
export function changedValue(v: { value?: string; previous?: string }): string {
  return v.previous !== undefined ? `${v.previous} → ${v.value}` : `${v.value}`;
}

/** The exception kind of a test run's failure stop (src/testing/failureDetails.ts). */
const TEST_FAILURE_KIND = 'test failure';

export function renderStop(stop: Stop, maxChars = DEFAULT_MAX_CHARS): string {
  const parts = [stopHeadline(stop)];
  // Why a breakpoint stopped that its condition would not have stopped (the condition failed).
  if (stop.reason === 'breakpoint' && stop.description) parts.push(stop.description);
  const failure = stop.reason === 'exception' && stop.exception?.kind === TEST_FAILURE_KIND ? stop.exception : undefined;
  if (failure?.message) parts.push(indent(failure.message.trimEnd()));
  if (failure?.expected !== undefined) parts.push(renderAssertionValues(failure));
  if (stop.source?.length) parts.push(renderSourceLines(stop.source));
  else if (!stop.frame.file) parts.push('(no source for this frame: inspect_stack shows the frames that have source)');
  if (stop.reason === 'exception' && stop.exception) parts.push(...renderAutopsy(stop.exception));
  if (stop.locals) {
    const locals = stop.locals.map((l) => `${l.name} = ${changedValue(l)}${l.type ? ` (${l.type})` : ''}`).join(', ');
    const more = stop.localsOmitted ? `, … ${stop.localsOmitted} more (inspect_variables)` : '';
    parts.push(`locals: ${locals || '(none)'}${more}`);
  }
  const text = parts.join('\n');
  return stop.watches?.length ? withWatches(text, stop.watches, maxChars) : fitText(text, maxChars, 'inspect_variables and inspect_source');
}

const CAUSE_RELATION: Record<ExceptionCause['relation'], string> = { cause: 'caused by', context: 'while handling', inner: 'inner', member: 'holds' };

/** `expected: 30   actual: 25`, and where the whole values are when these are cut. */
function renderAssertionValues(ex: ExceptionAutopsy): string {
  const whole = ex.valuesExpression ? `\n(whole values: inspect_evaluate ${ex.valuesExpression.expected} / ${ex.valuesExpression.actual})` : '';
  const oneLine = !`${ex.expected}${ex.actual}`.includes('\n');
  return oneLine ? `expected: ${ex.expected}   actual: ${ex.actual}${whole}` : `expected:\n${indent(ex.expected ?? '')}\nactual:\n${indent(ex.actual ?? '')}${whole}`;
}

/** An exception stop's autopsy: the throw site (when elsewhere), the causes, the folded stack. */
function renderAutopsy(ex: ExceptionAutopsy): string[] {
  const parts: string[] = [];
  if (ex.kind !== TEST_FAILURE_KIND && ex.expected !== undefined) parts.push(renderAssertionValues(ex));
  if (ex.throwSource?.length && ex.thrownAt) parts.push(`thrown at ${where(ex.thrownAt.file, ex.thrownAt.line)}:\n${renderSourceLines(ex.throwSource)}`);
  let depth = 0;
  for (const c of ex.causes ?? []) {
    const at = c.thrownAt ? ` (${where(c.thrownAt.file, c.thrownAt.line)})` : '';
    // A group's members sit side by side; each cause goes one deeper.
    parts.push(`${'  '.repeat(depth)}${CAUSE_RELATION[c.relation]} ${c.type ?? 'exception'}${c.message ? `: ${c.message}` : ''}${at}`);
    if (c.relation !== 'member') depth++;
  }
  if (ex.moreCauses) parts.push(`… ${ex.moreCauses} more causes`);
  if (ex.frames?.length) {
    parts.push(`stack: ${ex.frames.map(renderStackEntry).join(' ← ')}${ex.moreFrames ? ` ← … ${ex.moreFrames} more (inspect_stack)` : ''}`);
  }
  return parts;
}

export function renderWait(sessionId: string, result: WaitResult, timeoutMs?: number): string {
  switch (result.status) {
    case 'stopped':
      return result.stop ? `[${sessionId}] ${renderStop(result.stop)}` : `[${sessionId}] Stopped.`;
    case 'exited': {
      if (result.verdict && result.state !== 'failed') return `[${sessionId}] ${renderVerdict(result.verdict, result.exitCode, result.outputTail)}`;
      const how =
        result.state === 'failed'
          ? `failed: ${result.error ?? 'unknown error'}`
          : result.state === 'terminated'
            ? 'ended'
            : describeExit(result.exitCode, result.exitSignal);
      return `[${sessionId}] The program ${how}.${outputTailText(result.outputTail)}`;
    }
    case 'blocked':
      return `[${sessionId}] No thread could be stopped: each waits outside the program's code (below, where). The pause stays asked for: a thread that wakes stops; session_stop ends the program.`;
    case 'timeout':
      if (result.error) return `[${sessionId}] Wait ended (${result.error}); the program is ${result.state}.`;
      return `[${sessionId}] No stop within ${timeoutMs ?? result.waitedMs} ms; the program is ${result.state}. Call breakpoint_wait again, or execution_pause to interrupt it.`;
  }
}

/** A run's end with its verdict (a test run): PASSED / FAILED with the runner's counts and what failed, else its last output. */
export function renderVerdict(verdict: RunVerdict, exitCode: number | undefined, outputTail: string | undefined, lead = 'The test run ended:'): string {
  const code = exitCode !== undefined ? `, exit code ${exitCode}` : '';
  const parts = [`${lead} ${verdictWord(verdict.status)}${verdict.counts ? ` (${verdict.counts})` : ''}${code}.`];
  if (verdict.failureSummary) parts.push(`Failure summary:\n${indent(verdict.failureSummary.trimEnd())}`);
  else if (outputTail?.trim()) parts.push(`output (last lines):\n${indent(outputTail.trimEnd())}`);
  return parts.join('\n');
}

/** session_stop: whether ending the session ended the program, so its exit code is not read as the program's own. */
export function renderSessionEnd(sessionId: string, end: { detached: boolean; wasRunning: boolean; exitCode?: number; exitSignal?: string; outputTail: string; verdict?: RunVerdict }): string {
  if (end.verdict && !end.detached) {
    const lead = end.wasRunning ? 'Session ended, and the test run with it before its end:' : 'Session ended; the test run had ended:';
    return `[${sessionId}] ${renderVerdict(end.verdict, end.wasRunning ? undefined : end.exitCode, end.outputTail, lead)}`;
  }
  const known = end.exitCode !== undefined || end.exitSignal !== undefined;
  const termination = end.exitSignal ?? `exit code ${end.exitCode}`;
  let how: string;
  if (!end.wasRunning) how = `Session ended; the program had already ${known ? describeExit(end.exitCode, end.exitSignal).replace(/^was /, 'been ') : 'ended'}.`;
  else if (end.detached) how = 'Detached; the program runs on.';
  else how = `Stopped: the session ended the program by terminating it${known ? ` (${termination} is that termination, not the program's own exit)` : ''}.`;
  return `[${sessionId}] ${how}${outputTailText(end.outputTail)}`;
}

/** A line breakpoint's place: file:line, and :column where one was asked for (two on one line differ by it). */
function breakpointPlace(b: BreakpointRecord): string {
  return `${where(b.file, b.line ?? 0)}${b.column ? `:${b.column}` : ''}`;
}

/** The program's last output where an answer ends a run (an exit, session_stop, a probe): one form, indented. */
export function outputTailText(tail: string | undefined): string {
  return tail?.trim() ? `\noutput (last lines):\n${indent(tail.trimEnd())}` : '';
}

export function renderBreakpoint(b: BreakpointRecord): string {
  const what = b.kind === 'function' ? `function ${b.function}` : breakpointPlace(b);
  const extras = [
    b.condition ? `if ${b.condition}` : '',
    b.hitCondition ? `hit ${b.hitCondition}` : '',
    b.logMessage ? `log "${b.logMessage}"` : '',
  ].filter(Boolean);
  const status = statusOf(b);
  const movedColumn = b.column && b.binding?.column && b.binding.column !== b.column;
  const moved = b.binding?.line && b.line && (b.binding.line !== b.line || movedColumn) ? `, moved to ${movedColumn ? `${b.binding.line}:${b.binding.column}` : `line ${b.binding.line}`}` : '';
  const boundAt = b.kind === 'function' && b.binding?.verified && b.binding.line ? ` at ${where(b.binding.file, b.binding.line)}` : '';
  const why = b.binding?.message && status !== 'verified' ? `: ${b.binding.message}` : '';
  if (b.trace?.length) extras.push(`trace ${traceColumns(b.trace).map(columnLabel).join(', ')}${b.traceDone ? ', done' : ''}`);
  const hits = b.hits ? `, ${b.hits} hit${b.hits === 1 ? '' : 's'}` : '';
  const disabled = b.enabled === false ? 'disabled, ' : '';
  return `#${b.id} ${what}${extras.length ? ` (${extras.join(', ')})` : ''} — ${disabled}${status}${boundAt}${moved}${why}${hits}`;
}

export function renderBreakpoints(list: BreakpointRecord[]): string {
  return list.length ? list.map(renderBreakpoint).join('\n') : 'No breakpoints.';
}

/** A frame's name and place; the name alone where the runtime gives no place. */
function frameText(f: { name: string; file?: string; line: number }): string {
  return `${f.name}${f.file || f.line ? ` (${where(f.file, f.line)})` : ''}`;
}

/** One entry of a folded stack (core/frameFolding.ts); `×N` after an entry: it stands for N frames in a row. */
export function renderStackEntry(entry: StackEntry): string {
  const times = (n = 1) => (n > 1 ? ` ×${n}` : '');
  if (entry.external) return `[External Code]${times(entry.external)}`;
  return `${frameText(entry)}${times(entry.times)}${entry.async ? ' [async]' : ''}${entry.catches ? catchText(entry.catches) : ''}`;
}

/** An awaiting caller's catch of the exception. */
function catchText(c: NonNullable<StackEntry['catches']>): string {
  return ` ${c.filter ? 'may catch it (filter)' : 'catches it'} at ${where(c.file, c.line)}`;
}

/** An entry as a line of a listed stack. */
export function stackEntryLine(entry: StackEntry): string {
  return `#${entry.index} ${renderStackEntry(entry)}`;
}

/**
 * `fold` (the page from the top): external runs and recursion folded, and the call that lists the
 * external frames one by one (none for a runtime's own label frame: it lists nothing more);
 * otherwise every frame, an external one with source marked.
 */
export function renderStack(frames: (FrameInfo & { index: number })[], threadId: number, total?: number, fold = false): string {
  let lines: string[];
  if (fold) {
    const entries = foldFrames(frames);
    lines = entries.map(stackEntryLine);
    const listable = entries.find((entry) => entry.external && frames.slice(entry.index, entry.index + entry.external).some((f) => f.presentationHint !== 'label'));
    if (listable) lines.push(`(inspect_stack ${JSON.stringify({ start: listable.index })} lists each frame)`);
  } else {
    lines = frames.map((f) => `#${f.index} ${frameText(f)}${f.async ? ' [async]' : ''}${f.file && isExternal(f) ? ' [external]' : ''}`);
  }
  const more = total !== undefined && frames.length && frames[frames.length - 1].index + 1 < total ? `\n… ${total - frames[frames.length - 1].index - 1} more frames (page with start)` : '';
  return `Thread ${threadId} stack:\n${lines.join('\n')}${more}`;
}

export function renderThreads(threads: ThreadInfo[], stoppedThreadId?: number): string {
  if (!threads.length) return 'No threads.';
  return threads.map((t) => `${t.id === stoppedThreadId ? '*' : ' '} ${t.id} ${t.name}`).join('\n');
}

/** `query`: the arguments that asked for this page, so the note can give the exact call for the next one. */
export function renderVariables(answer: VariablesAnswer, start: number, query: Record<string, unknown> = {}, maxChars = DEFAULT_MAX_CHARS): string {
  const { container, variables: vars, more, scopes, cut, total } = answer;
  const lines = vars.map((v) => `${'  '.repeat(v.level)}${v.name} = ${v.value}${v.type ? ` (${v.type})` : ''}${v.hasChildren ? ' +' : ''}`);
  const body = lines.length ? lines.join('\n') : '(empty)';
  const listed = vars.filter((v) => v.level === 0).length;
  const next = cut?.nextStart ?? (more ? start + listed : undefined);
  const cutNote = cut
    ? `\n… answer cut at its ${cut.reason === 'size' ? 'size cap' : 'time budget'}${cut.unexpanded.length ? `; not fully expanded: ${cut.unexpanded.slice(0, 3).join(', ')} (pass one as path)` : ''}`
    : '';
  const left = total !== undefined && next !== undefined ? ` ${total - next} more of ${total}` : ' more';
  const pageNote = next !== undefined ? `\n…${left}: inspect_variables ${JSON.stringify({ ...query, start: next })}` : '';
  const long = vars.find((v) => / more chars\)$/.test(v.value));
  const longNote = long ? `\n(values ending "more chars)" are cut: inspect_evaluate ${JSON.stringify({ expression: long.path })} reads one whole)` : '';
  // The frame's other scopes, when a scope was listed (not the children of a value).
  const others = query.path === undefined && query.ref === undefined ? scopes.filter((s) => s.name !== container).map((s) => s.name) : [];
  const scopeNote = others.length ? `\nother scopes: ${others.join(', ')} (inspect_variables ${JSON.stringify({ ...query, start: undefined, scope: others[0] })}${others.length > 1 ? ' reads the first' : ''})` : '';
  const expandNote = vars.some((v) => v.hasChildren) ? '\n(+ = has children: pass its path, e.g. path: "' + vars.find((v) => v.hasChildren)!.path + '")' : '';
  return fitText(`${container}:\n${body}${cutNote}${pageNote}${longNote}${expandNote}${scopeNote}`, maxChars, 'inspect_variables with start, path or a larger maxChars');
}

type LanguageRow = { language: string; displayName: string; availability: Availability; capabilities?: EngineCapabilities };

/** One line a runtime: what debugs it here, or why nothing does and the fix; `details` adds what each engine can do. */
export function renderLanguages(rows: LanguageRow[], details = false): string {
  const lines = rows.map((row) => (details ? languageDetails(row) : languageLine(row)));
  return details ? lines.join('\n') : `${lines.join('\n')}\n(languages_list {"details":true}: what each engine can do)`;
}

function languageLine({ language, availability: a }: LanguageRow): string {
  if (!a.available) return `${language}: not available — ${a.reason ?? 'unknown reason'}${a.install ? ` Fix: ${a.install}` : ''}`;
  const where = a.detail?.split(';')[0];
  return `${language}: ${where ?? ''}${a.version ? ` (${a.version})` : ''}`;
}

function languageDetails({ language, displayName, availability: a, capabilities: c }: LanguageRow): string {
  if (!a.available || !c) return `${language} (${displayName}): NOT AVAILABLE — ${a.reason ?? 'unknown reason'}${a.install ? `\n  fix: ${a.install}` : ''}`;
  const caps = Object.entries(c)
    .filter(([k, v]) => typeof v === 'boolean' && v && k !== 'stepBack')
    .map(([k]) => k);
  const filters = c.exceptionFilters.length ? `\n  exception filters: ${c.exceptionFilters.map((f) => f.id).join(', ')}` : '';
  const notes = c.notes?.length ? `\n  notes: ${c.notes.join(' ')}` : '';
  return `${language} (${displayName}): available${a.version ? `, ${a.version}` : ''}${a.detail ? ` — ${a.detail}` : ''}\n  can: ${caps.join(', ')}${filters}${notes}`;
}

export function renderEvents(events: { seq: number; at: number; value: SessionEvent }[], dropped: number): string {
  const lines = events.map((e) => `${e.seq}. ${e.value.summary}`);
  const lost = dropped ? `(${dropped} older events were dropped)\n` : '';
  return lines.length ? `${lost}${lines.join('\n')}` : `${lost}No new events.`;
}

export function indent(text: string, by = '  '): string {
  return text
    .split('\n')
    .map((l) => by + l)
    .join('\n');
}
