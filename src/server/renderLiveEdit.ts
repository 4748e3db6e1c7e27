/** Text of a live edit's answer: what became of each file, the frames still running old code, the stop after it. */
import { basename } from 'node:path';
import type { LiveEditChange } from '../core/engine.js';
import type { LiveEditAnswer } from '../core/liveEdit.js';
import { renderStop, where } from './render.js';
import { DEFAULT_MAX_CHARS, fitText } from './renderAnswers.js';

/** Items named per file; the rest are counted. */
const ITEMS_SHOWN = 8;
/** Files listed one a line; the rest are counted. */
const FILES_SHOWN = 20;
/** A runtime's refusal can quote a whole compiler message: it is cut here. */
const REASON_CHARS = 400;

export function renderLiveEdit(sessionId: string, answer: LiveEditAnswer): string {
  const { changes, staleFrames, notes } = answer.result;
  const count = (status: LiveEditChange['status']) => changes.filter((c) => c.status === status).length;
  const [applied, refused, unchanged] = [count('applied'), count('refused'), count('unchanged')];
  const lines: string[] = [];
  if (!applied && !refused) lines.push(`[${sessionId}] Nothing to apply: ${unchanged ? 'the files are as the program runs them' : 'no source the program loaded has changed'} (since it loaded them or since the last apply).`);
  else lines.push(`[${sessionId}] ${[applied && `Applied ${files(applied)}`, refused && `refused ${files(refused)}`, unchanged && `${unchanged} unchanged`].filter(Boolean).join(', ')}; the program is ${answer.state}.`);
  const listed = changes.filter((c) => c.status !== 'unchanged');
  for (const change of listed.slice(0, FILES_SHOWN)) lines.push(...changeLines(change));
  if (listed.length > FILES_SHOWN) lines.push(`… ${listed.length - FILES_SHOWN} more files (structuredContent.changes lists every one)`);
  if (staleFrames.length) {
    const shown = staleFrames.slice(0, 6).map((f) => `${f.name} (${where(f.file, f.line ?? 0)}, thread ${f.threadId})`);
    lines.push(`Still running the old code until they return: ${shown.join(', ')}${staleFrames.length > 6 ? `, … ${staleFrames.length - 6} more` : ''}.`);
  }
  for (const note of notes) lines.push(note);
  if (answer.stop) {
    const { frame, threadId } = answer.stop;
    const stale = staleFrames.some((f) => f.threadId === threadId && f.name === frame.name && f.line === frame.line);
    if (stale) lines.push('The stop below runs the code from before the edit; its lines are the file as it is now.');
    lines.push(renderStop(answer.stop));
  }
  if (applied) lines.push(answer.state === 'stopped' ? 'Next: execution_continue or execution_step runs the new code; breakpoints on the edited lines hold.' : 'Next: the next call into the edited code runs it; breakpoint_wait answers a stop.');
  else if (refused) lines.push('Next: fix what the refusal names and call session_apply_changes again, or session_restart to run the program from the start.');
  return fitText(lines.join('\n'), DEFAULT_MAX_CHARS, 'structuredContent and inspect_source');
}

function files(n: number): string {
  return `${n} file${n === 1 ? '' : 's'}`;
}

function changeLines(change: LiveEditChange): string[] {
  const items = change.items.slice(0, ITEMS_SHOWN).join(', ') + (change.items.length > ITEMS_SHOWN ? `, … ${change.items.length - ITEMS_SHOWN} more` : '');
  const head = `  ${basename(change.file)}: ${change.status}${items ? ` — ${items}` : ''}`;
  const out = [head];
  if (change.reason) out.push(`    ${change.reason.length > REASON_CHARS ? `${change.reason.slice(0, REASON_CHARS)}…` : change.reason}`);
  if (change.nextStep) out.push(`    Next: ${change.nextStep}`);
  return out;
}
