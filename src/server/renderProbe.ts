/**
 * debug_probe's answer: one table like a trace's — a row per hit with the asked expressions — and
 * each place the program stopped at named once (its line of source beside it), not repeated per
 * hit. The locals come per hit only when asked for.
 */
import type { Stop } from '../core/sessionTypes.js';
import { outputTailText, where } from './render.js';
import { fitText, tableCell } from './renderAnswers.js';

export interface ProbeHit {
  stop: Stop;
  values: { expression: string; value?: string; type?: string; error?: string }[];
}

export interface ProbeText {
  sessionId: string;
  hits: ProbeHit[];
  expressions: string[];
  locals: boolean;
  /** How the probe ended, one sentence. */
  end: string;
  outputTail: string;
  /** The tables of the probe's trace breakpoints, which record without stopping. */
  traces: string[];
  maxChars: number;
}

/** Characters of one cell. */
const CELL_CHARS = 80;
/** Characters of a place's source line. */
const SOURCE_CHARS = 100;

/** A place's key: the function and the line it stopped at. */
const placeOf = (stop: Stop) => `${stop.frame.name} (${where(stop.frame.file, stop.frame.line)})`;

function sourceText(stop: Stop): string {
  const text = stop.source?.find((l) => l.current)?.text.trim();
  return text ? `: ${text.length > SOURCE_CHARS ? `${text.slice(0, SOURCE_CHARS)}…` : text}` : '';
}

/** Letters for places: A … Z, then A1 …. */
const tag = (i: number) => `${String.fromCharCode(65 + (i % 26))}${i >= 26 ? Math.floor(i / 26) : ''}`;

export function renderProbe(p: ProbeText): string {
  const places = [...new Map(p.hits.map((h) => [placeOf(h.stop), h.stop])).entries()];
  const tags = new Map(places.map(([place], i) => [place, tag(i)]));
  const several = places.length > 1;
  const count = `${p.hits.length} hit${p.hits.length === 1 ? '' : 's'}`;
  const head = [`[${p.sessionId}] ${count}${places.length === 1 ? ` at ${places[0][0]}${sourceText(places[0][1])}` : ''}. ${p.end}`];
  if (several) head.push(...places.map(([place, stop]) => `${tags.get(place)} = ${place}${sourceText(stop)}`));
  const columns = ['hit', ...(several ? ['at'] : []), ...p.expressions];
  if (p.hits.length && columns.length > 1) head.push(columns.join(' | '));
  const rows = p.hits.flatMap((hit, i) => {
    const cells = [String(i + 1), ...(several ? [tags.get(placeOf(hit.stop))!] : []), ...hit.values.map((v) => tableCell(v, CELL_CHARS))];
    const lines = columns.length > 1 ? [cells.join(' | ')] : [];
    const ex = hit.stop.exception;
    if (hit.stop.reason === 'exception' && ex) lines.push(`  ${i + 1}: exception ${ex.type ?? ''}${ex.message ? `: ${ex.message}` : ''}`);
    if (p.locals && hit.stop.locals) lines.push(`  ${columns.length > 1 ? '' : `${i + 1}: `}locals: ${hit.stop.locals.map((l) => `${l.name} = ${tableCell(l, CELL_CHARS)}`).join(', ') || '(none)'}`);
    return lines;
  });
  const tail = outputTailText(p.outputTail);
  return fitText(`${[...head, ...rows, ...p.traces].join('\n')}${tail}`, p.maxChars, 'the structured answer (hits) and a smaller maxHits');
}
