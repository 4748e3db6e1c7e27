/** A run's verdict as answers carry it: the runner's failure report capped, with where the rest is. */
import type { RunVerdict } from '../core/types.js';
import type { TestPlan } from './types.js';

const SUMMARY_CHARS = 3000;

export function cappedVerdict(verdict: RunVerdict): RunVerdict {
  const summary = verdict.failureSummary;
  if (!summary || summary.length <= SUMMARY_CHARS) return verdict;
  return { ...verdict, failureSummary: `${summary.slice(0, SUMMARY_CHARS)}\n… (capped; session_output has all of it)` };
}

/** The runner's verdict from what it printed, capped; a Windows runner's `\r\n` read as the `\n` the outcome patterns match. */
export function runnerVerdict(plan: TestPlan, output: string, exitCode: number | undefined): RunVerdict {
  return cappedVerdict(plan.outcome(output.replaceAll('\r\n', '\n'), exitCode));
}
