/**
 * Text of the hang report: deadlocks first, then each group of identical stacks with what it waits
 * on, then the async chains no thread runs (grouped the same way) with what their innermost await
 * waits on.
 */
import { foldFrames } from '../core/frameFolding.js';
import type { HangReport, StackGroup, TaskGroup } from '../core/hangReport.js';
import type { AsyncDeadlock, AwaitWait, FrameInfo, ThreadWait } from '../core/types.js';
import { renderStackEntry, stackEntryLine, where } from './render.js';

/** Past this the report stops adding groups and says which threads it left out. */
const REPORT_CHARS = 4000;
/** The pending async chains have room of their own after the threads. */
const TASKS_CHARS = 2500;

export function renderHangReport(report: HangReport): string {
  const names = new Map(report.threads.map((t) => [t.id, t.name]));
  const who = (id: number) => `thread ${id}${names.get(id) ? ` (${names.get(id)})` : ''}`;
  const lines = [`${report.threads.length} thread${report.threads.length === 1 ? '' : 's'}, ${report.groups.length} distinct stack${report.groups.length === 1 ? '' : 's'}:`];
  for (const cycle of report.deadlocks) lines.push(`DEADLOCK: ${cycle.map(who).join(' → ')} → thread ${cycle[0]}: each waits on what the next holds.`);
  for (const deadlock of report.asyncDeadlocks ?? []) lines.push(asyncDeadlockText(deadlock, who));
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
  lines.push(...renderTasks(report, who));
  return lines.join('\n');
}

/** The async chains no thread runs, the largest groups first, within their own size cap. */
function renderTasks(report: HangReport, who: (id: number) => string): string[] {
  const groups = report.tasks ?? [];
  const lines: string[] = [];
  if (report.tasksUnavailable) lines.push(`(pending async tasks: ${report.tasksUnavailable})`);
  const unread = report.tasksUnread ?? 0;
  const unreadLine = `${unread} pending async chain${unread === 1 ? '' : 's'} no thread runs, not read (time limit): inspect_threads { stacks: true } reads them again.`;
  const chains = groups.reduce((n, g) => n + g.count, 0) + (report.tasksOmitted ?? 0);
  if (groups.length === 0) {
    if (chains) lines.push(`${chains} pending async chain${chains === 1 ? '' : 's'} no thread runs, left out (size cap).`);
    if (unread) lines.push(unreadLine);
    return lines;
  }
  lines.push(`${chains + unread} pending async chain${chains + unread === 1 ? '' : 's'} no thread runs (innermost await first):`);
  let used = 0;
  let left = report.tasksOmitted ?? 0;
  for (const group of groups) {
    const text = renderTaskGroup(group, who);
    if (used + text.length > TASKS_CHARS && used > 0) left += group.count;
    else {
      lines.push(text);
      used += text.length + 1;
    }
  }
  if (left) lines.push(`… ${left} more chain${left === 1 ? '' : 's'} left out (size cap).`);
  if (unread) lines.push(`… ${unreadLine}`);
  return lines;
}

function renderTaskGroup(group: TaskGroup, who: (id: number) => string): string {
  const blocked = group.blockedThreadIds?.length ? `; ${group.blockedThreadIds.map(who).join(', ')} block${group.blockedThreadIds.length === 1 ? 's' : ''} on it` : '';
  const frames = foldFrames(group.frames).map((entry) => `  ${renderStackEntry(entry)}`).join('\n');
  return `${group.count} × ${awaitText(group.waitsOn)}${blocked}${frames ? `\n${frames}` : ''}`;
}

function frameLine(frame: FrameInfo): string {
  return renderStackEntry({ index: 0, name: frame.name, file: frame.file, line: frame.line });
}

function asyncDeadlockText(deadlock: AsyncDeadlock, who: (id: number) => string): string {
  const user = deadlock.frames.filter((f) => f.file);
  if (deadlock.kind === 'cycle') {
    const [first, ...rest] = user;
    if (!first) return 'DEADLOCK: async methods await one another.';
    return `DEADLOCK: ${[first, ...rest].map(frameLine).join(' awaits ')} awaits ${first.name}: the tasks wait on one another.`;
  }
  const chain = user.map(frameLine).join(' ← ');
  const context = deadlock.context ? ` (${deadlock.context})` : '';
  return `DEADLOCK: ${deadlock.threadId !== undefined ? who(deadlock.threadId) : 'a thread'} blocks (.Result / .Wait()) on ${chain || 'an async method'}, which can resume only on that thread's SynchronizationContext${context}: sync over async.`;
}

function awaitText(wait: AwaitWait): string {
  const on = wait.object ? ` (${wait.object})` : '';
  switch (wait.kind) {
    case 'delay':
      return `awaits ${wait.object ?? 'Task.Delay'}`;
    case 'io':
      return `awaits ${wait.what ?? 'I/O'}${on}`;
    case 'task':
      return `awaits a task${on}`;
    case 'semaphore':
      return `awaits ${wait.object ?? 'SemaphoreSlim.WaitAsync'}`;
    case 'promise':
      return `awaits ${wait.object ?? 'a promise task'}, not completed`;
    case 'yield':
      return 'resumes from Task.Yield() when the thread pool runs it';
    case 'resuming':
      return 'its await is over: waits to be resumed (queued)';
    case 'deadlock':
      return 'awaits a task of the deadlock above';
    case 'other':
      return `awaits ${wait.object ?? 'something the debugger cannot name'}`;
  }
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
