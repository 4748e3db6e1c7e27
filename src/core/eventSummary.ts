/** One line per engine event for the session's event log. */
import type { EngineEvent } from './engine.js';
import type { SessionEvent } from './sessionTypes.js';
import type { RunVerdict } from './types.js';

export function describeEvent(event: Exclude<EngineEvent, { type: 'stopped' | 'output' | 'continued' | 'trace' }>): SessionEvent {
  switch (event.type) {
    case 'breakpoint': {
      const b = event.binding;
      const where = b.line ? ` at line ${b.line}` : '';
      return { type: 'breakpoint', summary: `Breakpoint #${b.id} ${b.verified ? 'verified' : 'not verified'}${where}${b.message ? `: ${b.message}` : ''}`, data: { ...b } };
    }
    case 'module':
      return { type: 'module', summary: `Module ${event.reason === 'new' ? 'loaded' : event.reason}: ${event.path ?? event.name}`, data: { name: event.name, path: event.path, reason: event.reason } };
    case 'thread':
      return { type: 'thread', summary: `Thread ${event.threadId}${event.name ? ` (${event.name})` : ''} ${event.reason}`, data: { threadId: event.threadId, reason: event.reason } };
    case 'process':
      return { type: 'process', summary: `Process ${event.pid ?? '?'} started${event.name ? `: ${event.name}` : ''}`, data: { pid: event.pid } };
    case 'verdict':
      return { type: 'verdict', summary: `The run ${verdictWord(event.verdict.status)}${event.verdict.counts ? ` (${event.verdict.counts})` : ''}`, data: { ...event.verdict } };
    case 'exited':
      return { type: 'exited', summary: `The program ${describeExit(event.exitCode, event.signal)}`, data: { exitCode: event.exitCode, signal: event.signal } };
    case 'terminated':
      return { type: 'terminated', summary: 'Debug session ended by the runtime' };
    case 'error':
      return { type: 'error', summary: `Engine failure: ${event.message}` };
  }
}

/** How a program ended, in the one wording every runtime shares: "exited with code 3", "was killed by SIGKILL". */
export function describeExit(exitCode: number | undefined, signal: string | undefined): string {
  if (signal) return `was killed by ${signal}`;
  return exitCode === undefined ? 'exited (exit code unknown)' : `exited with code ${exitCode}`;
}

const VERDICT_WORDS: Record<RunVerdict['status'], string> = {
  passed: 'PASSED',
  failed: 'FAILED',
  'no tests': 'ran no test',
  error: 'did not run (error)',
  stopped: 'no verdict (stopped by the user)',
};

/** A run's verdict in the words every answer uses: PASSED, FAILED, ran no test, did not run, stopped. */
export function verdictWord(status: RunVerdict['status']): string {
  return VERDICT_WORDS[status];
}
