/** The texts of the test group: a stop of a test run, a finished run, a list of tests. */
import type { Stop } from '../core/sessionTypes.js';
import type { FinishedRun } from '../testing/testRun.js';
import type { ListedTest } from '../testing/types.js';
import { renderStop, renderVerdict } from './render.js';

export function renderTestStop(sessionId: string, head: string, stop: Stop): string {
  const next =
    stop.exception?.kind === 'test failure'
      ? 'Next: inspect_variables / inspect_evaluate look closer (in this frame; inspect_stack lists the frames above it); execution_continue lets the test finish and answers its end; session_stop ends it.'
      : 'Next: step, inspect, or execution_continue to the next stop or the end of the test; session_stop ends it.';
  return `[${sessionId}] ${head}\n${renderStop(stop)}\n${next}`;
}

export function renderFinished(sessionId: string, head: string, run: FinishedRun, outputTail: string): string {
  return `[${sessionId}] ${head}\n${renderVerdict(run.outcome, run.exitCode, outputTail)}`;
}

export function renderTestList(framework: string, tests: ListedTest[], total: number, filter: string | undefined): string {
  const shown = tests.map((t) => `  ${t.id}`).join('\n');
  const what = `${total} test${total === 1 ? '' : 's'} (${framework})${filter ? ` matching "${filter}"` : ''}`;
  const more = total > tests.length ? `\n… ${total - tests.length} more: narrow with filter, or raise limit.` : '';
  return total ? `${what}; pass an id as debug_test's test, with the same path:\n${shown}${more}` : `No tests found (${framework})${filter ? ` matching "${filter}"` : ''}.`;
}
