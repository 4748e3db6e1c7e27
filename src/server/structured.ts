/** Core objects → the structuredContent shapes declared in schemas.ts. */
import { statusOf, type BreakpointRecord } from '../core/breakpointRegistry.js';
import { columnLabel, traceColumns } from '../core/traceLog.js';
import type { Session } from '../core/session.js';
import type { HangReport } from '../core/hangReport.js';
import type { Stop, WaitResult } from '../core/sessionTypes.js';
import type { FrameInfo } from '../core/types.js';

export function breakpointView(b: BreakpointRecord) {
  const status = statusOf(b);
  return {
    id: b.id,
    file: b.file,
    line: b.line,
    column: b.column,
    function: b.function,
    status,
    verified: status === 'verified',
    actualLine: b.binding?.line,
    actualColumn: b.binding?.column,
    actualFile: b.binding?.file && b.binding.file !== b.file ? b.binding.file : undefined,
    message: b.binding?.message,
    condition: b.condition,
    hitCondition: b.hitCondition,
    logMessage: b.logMessage,
    trace: b.trace ? traceColumns(b.trace).map(columnLabel) : undefined,
    maxHits: b.trace ? b.maxHits : undefined,
    enabled: b.enabled === false ? false : undefined,
    hits: b.hits,
  };
}

export function stopView(stop: Stop) {
  const { at: _at, ...rest } = stop;
  return rest;
}

export function waitView(session: Session, r: WaitResult) {
  return {
    sessionId: session.id,
    state: r.state,
    status: r.status,
    stop: r.stop ? stopView(r.stop) : undefined,
    exitCode: r.exitCode,
    exitSignal: r.exitSignal,
    outputTail: r.outputTail,
    verdict: r.verdict,
    error: r.error,
    waitedMs: r.waitedMs,
    hang: r.hang ? hangView(r.hang) : undefined,
  };
}

/** The groups carry every thread; frame handles are left out (they do not outlive the answer). */
export function hangView(report: HangReport) {
  const plain = (frames: FrameInfo[]) => frames.map(({ name, file, line, column }) => ({ name, file, line, column }));
  return {
    groups: report.groups.map((g) => ({ ...g, frames: plain(g.frames) })),
    deadlocks: report.deadlocks,
    tasks: report.tasks?.map((t) => ({ ...t, frames: t.frames.map(({ name, file, line, column, async }) => ({ name, file, line, column, async })) })),
    tasksOmitted: report.tasksOmitted,
    tasksUnread: report.tasksUnread,
    tasksUnavailable: report.tasksUnavailable,
    asyncDeadlocks: report.asyncDeadlocks?.map((d) => ({ ...d, frames: plain(d.frames) })),
  };
}
