/**
 * A user breakpoint as one V8 breakpoint condition. V8 knows conditions only, so:
 * - a hit count is a counter kept in the debuggee, in an object hidden behind a registered symbol
 *   on globalThis and keyed by our breakpoint id: it survives re-setting the breakpoint, counts
 *   only hits whose condition held, and the condition is true on the hits that should stop;
 * - a logpoint is `console.log(…), false`: it prints through the program's own console (so its
 *   stdout) and never stops;
 * - a condition that throws stops, as in Visual Studio and debugbridge's .NET and Python engines.
 */
import { hitConditionParts } from '../../core/hitCondition.js';
import type { BreakpointSpec } from '../../core/types.js';
import type { CdpClient } from './cdpClient.js';

export const HIT_COUNTERS_SYMBOL = 'debugbridge.hitCounts';

export function v8Condition(spec: Pick<BreakpointSpec, 'id' | 'condition' | 'hitCondition' | 'logMessage'>): string | undefined {
  const parts: string[] = [];
  // A newline before the closing parenthesis keeps a trailing `// comment` from swallowing it.
  // A condition that throws stops (V8 would take it for false, silently): the stop says why (failedCondition).
  if (spec.condition?.trim()) parts.push(`(() => { try { return (${spec.condition}\n); } catch { return true; } })()`);
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

/** Why a breakpoint stopped that its condition did not choose: the first hit condition that throws, evaluated again in the paused frame. */
export async function failedCondition(cdp: CdpClient, callFrameId: string, conditions: { id: number; condition: string }[]): Promise<string | undefined> {
  for (const { id, condition } of conditions) {
    const answer = await cdp.send('Debugger.evaluateOnCallFrame', { callFrameId, expression: `(${condition}\n)`, silent: true }).catch(() => undefined);
    const error = answer?.exceptionDetails && (answer.result.description ?? answer.exceptionDetails.text).split('\n')[0];
    if (error) return `The condition of breakpoint #${id} (${condition}) could not be evaluated: ${error}`;
  }
  return undefined;
}
