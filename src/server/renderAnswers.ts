/**
 * Text for the answers built for an agent's budget: watches, evaluations of one or many
 * expressions, trace tables, and the cap every answer fits (`maxChars`). What is cut says so and
 * names the exact call that reads the rest.
 */
import type { BreakpointRecord } from '../core/breakpointRegistry.js';
import type { Trace } from '../core/traceLog.js';
import { cutValue, type ValueCut } from '../core/valueCut.js';
import type { WatchValue } from '../core/watchList.js';

/** Characters of text an answer has unless the call asks for another size. */
export const DEFAULT_MAX_CHARS = 4000;
/** What a line of an answer needs besides the values it shows (names, types, separators). */
const LINE_OVERHEAD = 40;

/** The text cut to `maxChars` when it is longer, with a marker naming what reads the rest. */
export function fitText(text: string, maxChars: number, readers: string): string {
  if (text.length <= maxChars) return text;
  const marker = `\n… answer cut at ${maxChars} chars (maxChars); ${readers} read the rest`;
  return `${text.slice(0, Math.max(0, maxChars - marker.length))}${marker}`;
}

function watchText(w: WatchValue, cap: number): string {
  const value = w.error ? `<error: ${w.value}>` : w.previous !== undefined ? `${w.previous} → ${w.value}` : `${w.value}`;
  return `${w.expression} = ${value.length > cap ? `${value.slice(0, cap)}…` : value}`;
}

/** A stop's text with its watch line; values are shortened (and said to be) when the whole would pass maxChars. */
export function withWatches(text: string, watches: WatchValue[], maxChars: number): string {
  let line = `watch: ${watches.map((w) => watchText(w, Number.POSITIVE_INFINITY)).join(', ')}`;
  if (text.length + 1 + line.length > maxChars) {
    const note = ' (values cut to fit: inspect_evaluate reads one whole)';
    const names = watches.reduce((n, w) => n + w.expression.length + 6, 0);
    const cap = Math.max(20, Math.floor((maxChars - text.length - 8 - note.length - names) / watches.length) - 2);
    line = `watch: ${watches.map((w) => watchText(w, cap)).join(', ')}${note}`;
  }
  return fitText(`${text}\n${line}`, maxChars, 'watch_list and inspect_variables');
}

export function renderWatches(watches: { id: number; expression: string }[], values: WatchValue[] | undefined, maxChars: number): string {
  if (!watches.length) return 'No watches.';
  const byId = new Map(values?.map((v) => [v.id, v]));
  const cap = Math.max(20, Math.floor(maxChars / watches.length) - LINE_OVERHEAD);
  const lines = watches.map((w) => {
    const v = byId.get(w.id);
    return `#${w.id} ${v ? watchText(v, cap) : w.expression}`;
  });
  const note = values ? '' : '\n(values show at the next stop)';
  return fitText(`${lines.join('\n')}${note}`, maxChars, 'watch_list with a larger maxChars');
}

export interface EvaluationView {
  expression: string;
  value?: string;
  type?: string;
  hasChildren?: boolean;
  ref?: number;
  error?: string;
  cut?: ValueCut;
  /** The exact call that reads on where the value was cut. */
  next?: string;
}

/**
 * One value cut to `room` characters, with the call that reads the rest: a slice of the string
 * from where the shown part ends, or the value's children page by page.
 */
export function pageValue(
  expression: string,
  r: { value: string; type?: string; hasChildren: boolean; ref: number },
  room: number,
  slice: (expression: string, start: number, end: number) => string,
): EvaluationView {
  const { text, cut } = cutValue(r.value, room);
  const view: EvaluationView = { expression, value: text, type: r.type, hasChildren: r.hasChildren, ref: r.ref };
  if (!cut) return view;
  view.cut = cut;
  if (cut.stringOffset !== undefined) {
    // A runtime that cuts long strings itself gives no more than that in one value: page by its size.
    const page = cut.stringLength === undefined && cut.stringOffset > 0 ? Math.min(cut.stringOffset, room - LINE_OVERHEAD) : room - LINE_OVERHEAD;
    const end = cut.stringOffset + Math.max(100, page);
    const to = cut.stringLength !== undefined ? Math.min(end, cut.stringLength) : end;
    view.next = `inspect_evaluate ${JSON.stringify({ expression: slice(expression, cut.stringOffset, to) })}`;
  } else if (r.hasChildren) {
    view.next = `inspect_variables ${JSON.stringify({ path: expression })}`;
  }
  return view;
}

function cutNote(v: EvaluationView): string {
  if (!v.cut) return '';
  const of = v.cut.stringLength !== undefined ? `; the string has ${v.cut.stringLength} chars` : `; its text has ${v.cut.textLength} chars${v.cut.stringOffset !== undefined ? ' as the runtime gave it' : ''}`;
  const read = v.next ? `; read on: ${v.next}, then the parts after it alike` : '; evaluate a part of it to see more';
  return `… (cut at ${v.cut.shown} chars${of}${read})`;
}

export function renderEvaluations(sessionId: string, views: EvaluationView[]): string {
  const lines = views.map((v) => {
    if (v.error) return `${v.expression}: <error: ${v.error}>`;
    // A statement (Python runs `x = 5` or `import os` as one) answers no value and no type.
    if (v.value === '' && !v.type && !v.hasChildren) return `${v.expression}: done (a statement: no value)`;
    const children = v.hasChildren && !v.next && views.length === 1 ? `\n(has children: inspect_variables with path "${v.expression}")` : '';
    return `${v.expression} = ${v.value}${cutNote(v)}${v.type ? ` (${v.type})` : ''}${children}`;
  });
  return `[${sessionId}] ${lines.join('\n')}`;
}

/**
 * A trace's table: hit, one column per expression, and the thread only when asked (`threads`): in
 * async code the thread changes with every hop and says nothing; the head counts the threads when
 * hits came from more than one. Paged from `start` (0-based row).
 */
export function renderTrace(record: BreakpointRecord | undefined, trace: Trace, start: number, maxChars: number, threads = false): { text: string; shown: number; next?: number } {
  const where = record ? `${record.file ? `${record.file.split(/[\\/]/).pop()}:${record.line}` : record.function}` : 'a removed breakpoint';
  const state = record?.traceDone || trace.rows.length >= trace.maxHits ? `full (maxHits ${trace.maxHits}), breakpoint disarmed` : `recording, up to ${trace.maxHits}`;
  const threadCount = new Set(trace.rows.map((r) => r.threadId)).size;
  const onThreads = !threads && threadCount > 1 ? `; ${threadCount} threads (threads: true shows which)` : '';
  const head = `Trace #${trace.breakpointId} at ${where}: ${trace.rows.length} hit${trace.rows.length === 1 ? '' : 's'} (${state}${onThreads})\nhit | ${threads ? 'thread | ' : ''}${trace.expressions.join(' | ')}`;
  const cap = Math.max(20, Math.floor(maxChars / 4 / Math.max(1, trace.expressions.length)));
  const lines: string[] = [];
  let size = head.length;
  let i = start;
  for (; i < trace.rows.length; i++) {
    const row = trace.rows[i];
    const line = `${row.hit} | ${threads ? `${row.threadId} | ` : ''}${row.values.map((v) => tableCell(v, cap)).join(' | ')}`;
    if (size + line.length + 1 > maxChars - 120 && lines.length) break;
    lines.push(line);
    size += line.length + 1;
  }
  const next = i < trace.rows.length ? i : undefined;
  const more = next !== undefined ? `\n… ${trace.rows.length - next} more rows: breakpoint_trace ${JSON.stringify({ id: trace.breakpointId, start: next, ...(threads ? { threads } : {}) })}` : '';
  const empty = trace.rows.length ? '' : '\n(no hits yet)';
  return { text: `${head}${empty}${lines.length ? `\n${lines.join('\n')}` : ''}${more}`, shown: lines.length, next };
}

/** A value in a table's cell: an error in angle brackets, cut to `cap` characters. */
export function tableCell(v: { value?: string; error?: boolean | string }, cap: number): string {
  const text = v.error ? `<error: ${typeof v.error === 'string' ? v.error : v.value}>` : `${v.value}`;
  return text.length > cap ? `${text.slice(0, cap)}…` : text;
}
