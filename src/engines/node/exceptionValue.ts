/**
 * `$exception` in an evaluation: the value the program stopped on while it is thrown. V8 has no
 * such name, so the value is handed to the expression as a parameter of that name, through a
 * registered symbol on the global object that the expression itself deletes.
 */
import type { Protocol } from 'devtools-protocol';
import { DebugError } from '../../core/errors.js';
import type { CdpClient } from './cdpClient.js';
import { callArgument } from './remoteObjects.js';
import type { CallFrame } from './valueHandles.js';

const NAME = '$exception';
const STASH = JSON.stringify('debugbridge.exception');

export function mentionsException(expression: string): boolean {
  return /(?<![\w$])\$exception(?![\w$])/.test(expression);
}

/** The expression, to evaluate on `frame`, with `$exception` bound to the thrown value. */
export async function withException(cdp: CdpClient, expression: string, thrown: Protocol.Runtime.RemoteObject | undefined, frame: CallFrame): Promise<string> {
  if (!thrown) {
    throw new DebugError('EVALUATION_FAILED', `${NAME} is only defined while the program is stopped on an exception.`, 'Break on exceptions with breakpoint_exceptions, then evaluate it at that stop.');
  }
  const global = frame.scopeChain.find((s) => s.type === 'global')?.object.objectId;
  if (!global) throw new DebugError('EVALUATION_FAILED', `${NAME} cannot be reached from this frame.`, 'Evaluate it in the top frame.');
  await cdp.send('Runtime.callFunctionOn', {
    objectId: global,
    functionDeclaration: `function (value) { this[Symbol.for(${STASH})] = value; }`,
    arguments: [callArgument(thrown)],
    silent: true,
  });
  const take = `(() => { const key = Symbol.for(${STASH}); const value = globalThis[key]; delete globalThis[key]; return value; })()`;
  return `((${NAME}) => (${expression}\n))(${take})`;
}
