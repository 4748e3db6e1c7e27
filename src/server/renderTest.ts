/** The texts of the test group: a failure stop, a finished run, a list of tests. */
import type { Stop } from '../core/sessionTypes.js';
import type { FailureView, FinishedRun } from '../testing/testRun.js';
import type { ListedTest } from '../testing/types.js';
import { renderSourceLines, renderStop, where } from './render.js';

export function renderFailure(sessionId: string, head: string, failure: FailureView): string {
  const parts = [`[${sessionId}] ${head}`, `Stopped where the test fails, in ${failure.frame.name} (${where(failure.frame.file, failure.frame.line)}): ${failure.type ?? 'exception'}`];
  if (failure.message) parts.push(indentBlock(failure.message.trimEnd()));
  if (failure.expected !== undefined) parts.push(`expected: ${failure.expected}   actual: ${failure.actual}`);
  if (failure.source?.length) parts.push(renderSourceLines(failure.source));
  if (failure.locals) parts.push(`locals: ${failure.locals.map((l) => `${l.name} = ${l.value}${l.type ? ` (${l.type})` : ''}`).join(', ') || '(none)'}`);
  if (failure.frameIndex > 0) parts.push(`This is frame ${failure.frameIndex} of inspect_stack (the frames above it are the assertion's own code): pass frameIndex: ${failure.frameIndex} to inspect_variables / inspect_evaluate.`);
  parts.push('Next: inspect_variables / inspect_evaluate to look closer; execution_continue lets the test finish and answers its end; session_stop ends it.');
  return parts.join('\n');
}

export function renderTestStop(sessionId: string, head: string, stop: Stop): string {
  return `[${sessionId}] ${head}\n${renderStop(stop)}\nNext: step, inspect, or execution_continue to the next stop or the end of the test; session_stop ends it.`;
}

export function renderFinished(sessionId: string, head: string, run: FinishedRun, outputTail: string): string {
  const { outcome, exitCode } = run;
  const verdict = outcome.status === 'passed' ? 'PASSED' : outcome.status === 'failed' ? 'FAILED' : outcome.status === 'no tests' ? 'ran no test' : 'did not run (error)';
  const parts = [`[${sessionId}] ${head}`, `The test run ended: ${verdict}${outcome.counts ? ` (${outcome.counts})` : ''}, exit code ${exitCode ?? 'unknown'}.`];
  if (outcome.failureSummary) parts.push(`Failure summary:\n${indentBlock(outcome.failureSummary)}`);
  else if (outputTail.trim()) parts.push(`output (last lines):\n${indentBlock(outputTail.trimEnd())}`);
  return parts.join('\n');
}

export function renderTestList(framework: string, tests: ListedTest[], total: number, filter: string | undefined): string {
  const shown = tests.map((t) => `  ${t.id}`).join('\n');
  const what = `${total} test${total === 1 ? '' : 's'} (${framework})${filter ? ` matching "${filter}"` : ''}`;
  const more = total > tests.length ? `\n… ${total - tests.length} more: narrow with filter, or raise limit.` : '';
  return total ? `${what}; pass an id as debug_test's test, with the same path:\n${shown}${more}` : `No tests found (${framework})${filter ? ` matching "${filter}"` : ''}.`;
}

function indentBlock(text: string): string {
  return text
    .split('\n')
    .map((l) => `  ${l}`)
    .join('\n');
}
