/**
 * Hit conditions as debuggers write them: "3" stops on the third hit, ">= 3", "> 3", "< 3", "<= 3",
 * "!= 3" compare the hit count, "% 3" stops on every third hit.
 */
import { DebugError } from './errors.js';

const HIT_CONDITION = /^\s*(==|===|>=|<=|>|<|!=|%)?\s*(\d+)\s*$/;

export type HitOperator = '==' | '>=' | '<=' | '>' | '<' | '!=' | '%';

/** The operator and count of a hit condition, or INVALID_ARGUMENT for text that is not one. */
export function hitConditionParts(text: string): { op: HitOperator; n: number } {
  const m = HIT_CONDITION.exec(text);
  if (!m) {
    throw new DebugError('INVALID_ARGUMENT', `"${text}" is not a hit condition.`, 'Use a number (stop on that hit) or an operator and a number: ">= 3", "% 2".');
  }
  const op = !m[1] || m[1] === '===' ? '==' : (m[1] as HitOperator);
  return { op, n: Number(m[2]) };
}

/** A test of the hit count (counted from 1), or INVALID_ARGUMENT for text that is not a hit condition. */
export function parseHitCondition(text: string): (count: number) => boolean {
  const { op, n } = hitConditionParts(text);
  switch (op) {
    case '>=':
      return (c) => c >= n;
    case '<=':
      return (c) => c <= n;
    case '>':
      return (c) => c > n;
    case '<':
      return (c) => c < n;
    case '!=':
      return (c) => c !== n;
    case '%':
      return (c) => n > 0 && c % n === 0;
    default:
      return (c) => c === n;
  }
}
