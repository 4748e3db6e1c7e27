/**
 * A user breakpoint as one V8 breakpoint condition. V8 knows conditions only, so:
 * - a hit count is a counter kept in the debuggee, in an object hidden behind a registered symbol
 *   on globalThis and keyed by our breakpoint id: it survives re-setting the breakpoint, counts
 *   only hits whose condition held, and the condition is true on the hits that should stop;
 * - a logpoint is `console.log(…), false`: it prints through the program's own console (so its
 *   stdout) and never stops.
 */
import { hitConditionParts } from '../../core/hitCondition.js';
import type { BreakpointSpec } from '../../core/types.js';

export const HIT_COUNTERS_SYMBOL = 'debugbridge.hitCounts';

export function v8Condition(spec: Pick<BreakpointSpec, 'id' | 'condition' | 'hitCondition' | 'logMessage'>): string | undefined {
  const parts: string[] = [];
  // A newline before the closing parenthesis keeps a trailing `// comment` from swallowing it.
  if (spec.condition?.trim()) parts.push(`(${spec.condition}\n)`);
  if (spec.hitCondition?.trim()) parts.push(hitCountTest(spec.id, spec.hitCondition));
  if (spec.logMessage !== undefined) parts.push(`(${logCall(spec.logMessage)}, false)`);
  return parts.length ? parts.join(' && ') : undefined;
}

/** "3" stops on the third hit; ">= 3", "> 3", "< 3", "!= 3" compare; "% 3" stops on every third. */
function hitCountTest(id: number, hitCondition: string): string {
  const { op, n } = hitConditionParts(hitCondition);
  const counters = `(globalThis[Symbol.for(${JSON.stringify(HIT_COUNTERS_SYMBOL)})] || (globalThis[Symbol.for(${JSON.stringify(HIT_COUNTERS_SYMBOL)})] = {}))`;
  const test = op === '%' ? `c % ${n} === 0` : `c ${op === '==' ? '===' : op} ${n}`;
  return `((h) => { const c = h[${id}] = (h[${id}] || 0) + 1; return ${test}; })(${counters})`;
}

/** `i is {i}` → console.log("i is %s", i); an expression that throws prints its error instead. */
function logCall(message: string): string {
  const args: string[] = [];
  const format = message.split(/(\{[^{}]+\})/).map((piece) => {
    if (/^\{[^{}]+\}$/.test(piece)) {
      args.push(`(() => { try { return (${piece.slice(1, -1)}\n); } catch (e) { return '<' + e + '>'; } })()`);
      return '%s';
    }
    return piece.replace(/%/g, '%%');
  });
  return `console.log(${[JSON.stringify(format.join('')), ...args].join(', ')})`;
}
