/** Text of the hang report: deadlocks first, then each group of identical stacks with what it waits on. */
import { foldFrames } from '../core/frameFolding.js';
import type { HangReport, StackGroup } from '../core/hangReport.js';
import type { ThreadWait } from '../core/types.js';
import { stackEntryLine, where } from './render.js';

/** Past this the report stops adding groups and says which threads it left out. */
const REPORT_CHARS = 4000;

export function renderHangReport(report: HangReport): string {
  const names = new Map(report.threads.map((t) => [t.id, t.name]));
  const who = (id: number) => `thread ${id}${names.get(id) ? ` (${names.get(id)})` : ''}`;
  const lines = [`${report.threads.length} thread${report.threads.length === 1 ? '' : 's'}, ${report.groups.length} distinct stack${report.groups.length === 1 ? '' : 's'}:`];
  for (const cycle of report.deadlocks) lines.push(`DEADLOCK: ${cycle.map(who).join(' → ')} → thread ${cycle[0]}: each waits on what the next holds.`);
  let used = lines.join('\n').length;
  const left: number[] = [];
  for (const group of report.groups) {
    const text = renderGroup(group, who);
    if (used + text.length > REPORT_CHARS && used > 0 && lines.length > 1) left.push(...group.threadIds);
    else {
      lines.push(text);
      used += text.length + 1;
    }
  }
  if (left.length) lines.push(`… ${left.length} more thread${left.length === 1 ? '' : 's'} left out (size cap): inspect_stack { threadId } reads one (${left.slice(0, 10).join(', ')}${left.length > 10 ? ', …' : ''}).`);
  return lines.join('\n');
}

function renderGroup(group: StackGroup, who: (id: number) => string): string {
  const [first] = group.threadIds;
  const head = group.threadIds.length === 1 ? `thread ${first} ${group.names[0]}` : `${group.threadIds.length} threads ${group.threadIds.join(', ')} (${[...new Set(group.names)].slice(0, 3).join(', ')})`;
  const state = group.error ? `stack not read: ${group.error}` : group.wait ? waitText(group.wait, who) : '';
  const holds = group.holds?.length ? `; holds ${group.holds.map((h) => `${h.object} (${where(h.file, h.line)})`).join(', ')}` : '';
  const frames = foldFrames(group.frames).map((entry) => `  ${stackEntryLine(entry)}`).join('\n');
  const shown = group.frames.length;
  const more = group.totalFrames !== undefined && group.totalFrames > shown ? `\n  … ${group.totalFrames - shown} more frames (inspect_stack { threadId: ${first}, start: ${shown} })` : '';
  return `${head}${state ? ` — ${state}` : ''}${holds}${frames ? `\n${frames}` : ''}${more}`;
}

function waitText(wait: ThreadWait, who: (id: number) => string): string {
  const on = wait.object ? ` ${wait.object}` : '';
  const owner = wait.ownerThreadId !== undefined ? `, held by ${who(wait.ownerThreadId)}` : '';
  switch (wait.kind) {
    case 'lock':
      return `waits on lock${on}${owner}`;
    case 'wait':
      return `waits for a signal${on ? ` on${on}` : ''}${owner}`;
    case 'join':
      return `waits for a thread to end${on ? ` (${wait.object})` : ''}`;
    case 'sleep':
      return 'sleeps';
    case 'io':
      return `waits on I/O${on ? ` (${wait.object})` : ''}`;
    case 'await':
      return `awaits${on}`;
    case 'task':
      return `waits on a Task${on ? ` (${wait.object})` : ''}`;
    case 'atomics':
      return `waits in Atomics.wait${on ? ` on${on}` : ''}`;
  }
}
