/** A run's verdict as answers carry it: the runner's failure report capped, with where the rest is. */
import type { RunVerdict } from '../core/types.js';

const SUMMARY_CHARS = 3000;

export function cappedVerdict(verdict: RunVerdict): RunVerdict {
  const summary = verdict.failureSummary;
  if (!summary || summary.length <= SUMMARY_CHARS) return verdict;
  return { ...verdict, failureSummary: `${summary.slice(0, SUMMARY_CHARS)}\n… (capped; session_output has all of it)` };
}
