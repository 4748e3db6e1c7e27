/**
 * The causes of a Python exception, from the traceback text debugpy answers in `exceptionInfo`
 * (pydevd writes each chained exception's frames and `Type: message`, oldest first, joined by
 * Python's own sentences for `__cause__` and `__context__`).
 */
import type { ExceptionCause } from '../../core/types.js';

const JOINS: { text: string; relation: ExceptionCause['relation'] }[] = [
  { text: '\n\nThe above exception was the direct cause of the following exception:\n\n', relation: 'cause' },
  { text: '\n\nDuring handling of the above exception, another exception occurred:\n\n', relation: 'context' },
];
const FRAME_LINE = /^ {2}File "(.+)", line (\d+), in /;

/** Nearest cause first; empty when the exception has none. */
export function causesFromTraceback(text: string | undefined): ExceptionCause[] {
  if (!text) return [];
  const sections: { text: string; joinedBy?: ExceptionCause['relation'] }[] = [];
  let rest = text;
  for (;;) {
    const next = JOINS.map((j) => ({ ...j, at: rest.indexOf(j.text) }))
      .filter((j) => j.at >= 0)
      .sort((a, b) => a.at - b.at)[0];
    if (!next) break;
    sections.push({ text: rest.slice(0, next.at), joinedBy: next.relation });
    rest = rest.slice(next.at + next.text.length);
  }
  // sections hold every exception but the last (the one stopped on), each with how the next relates to it.
  return sections.reverse().map((s) => ({ ...describeSection(s.text), relation: s.joinedBy! }));
}

function describeSection(text: string): Omit<ExceptionCause, 'relation'> {
  const lines = text.split('\n');
  let lastFrame = -1;
  let thrownAt: ExceptionCause['thrownAt'];
  lines.forEach((line, i) => {
    const m = FRAME_LINE.exec(line);
    if (m) {
      lastFrame = i;
      thrownAt = { file: m[1], line: Number(m[2]) };
    }
  });
  const verdictAt = lines.findIndex((line, i) => i > lastFrame && line.length > 0 && !line.startsWith(' '));
  const verdict = verdictAt >= 0 ? lines.slice(verdictAt).join('\n').trimEnd() : '';
  const colon = verdict.indexOf(': ');
  const [type, message] = colon >= 0 ? [verdict.slice(0, colon), verdict.slice(colon + 2)] : [verdict, undefined];
  return { type: type || undefined, message, ...(thrownAt ? { thrownAt } : {}) };
}

/** pydevd appends where it paused to the type name when that is not the raising frame. */
export function withoutPauseNote(typeName: string | undefined): string | undefined {
  return typeName?.replace(/\s+\(note: full exception trace is shown but execution is paused at: .*\)$/s, '');
}
