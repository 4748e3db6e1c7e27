/**
 * Where the paused frames are after a live edit moved their code. V8 moves the positions of
 * functions an edit left alone (lines added above them), but a pause's call frames keep the ones
 * they were sent with, and no request sends them again. The frames' own stack, read in the paused
 * top frame as V8's call sites (raw positions, whatever source-map support the program installed),
 * tells the current ones.
 */
import type { CdpClient } from './cdpClient.js';
import type { CallFrame } from './valueHandles.js';

/** Call sites of the paused stack below the evaluation itself, as [line, column] (1-based), sync frames only. */
const READ_POSITIONS = `(() => {
  const [prepare, limit] = [Error.prepareStackTrace, Error.stackTraceLimit];
  try {
    Error.prepareStackTrace = (_, sites) => sites;
    Error.stackTraceLimit = Infinity;
    return new Error().stack.filter((s) => !s.isEval() && !s.isAsync()).map((s) => [s.getLineNumber(), s.getColumnNumber()]);
  } finally {
    Error.prepareStackTrace = prepare;
    Error.stackTraceLimit = limit;
  }
})()`;

/** Moves each frame to its current position; frames that cannot be matched to the stack stay as they were. */
export async function followMovedCode(cdp: CdpClient, frames: CallFrame[]): Promise<void> {
  if (!frames.length) return;
  const answer = await cdp
    .send('Debugger.evaluateOnCallFrame', { callFrameId: frames[0].callFrameId, expression: READ_POSITIONS, returnByValue: true, silent: true })
    .catch(() => undefined);
  const sites = answer?.result.value as [number | null, number | null][] | undefined;
  if (!Array.isArray(sites) || sites.length !== frames.length) return;
  frames.forEach((frame, i) => {
    const [line, column] = sites[i];
    if (line !== null && column !== null) Object.assign(frame.location, { lineNumber: line - 1, columnNumber: column - 1 });
  });
}
