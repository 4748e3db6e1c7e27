/**
 * Setting the next statement: what the engine is asked to do for `execution_jump`, checked before
 * the program is touched — a line of the top frame's file, or a frame to run again from its start —
 * and, where the runtime cannot, an UNSUPPORTED error that names what it can do instead.
 */
import type { Engine } from './engine.js';
import { DebugError } from './errors.js';
import type { FrameInfo } from './types.js';

export type JumpTarget = { line: number } | { restartFrame: number };

export async function planJump(engine: Engine, language: string, target: JumpTarget, frameAt: (index: number) => Promise<FrameInfo>, threadId: number): Promise<() => Promise<void>> {
  if ('line' in target) {
    if (!engine.jump) {
      const instead = engine.restartFrame ? 'execution_jump { restartFrame: 0 } runs the current function again from its start' : 'execution_run_to runs forward to a line';
      throw new DebugError('UNSUPPORTED', `${language} cannot move the next statement.`, `${instead}; session_restart runs the program again.`);
    }
    const top = await frameAt(0);
    if (!top.file) throw new DebugError('INVALID_STATE', 'The top frame has no source, so it has no lines to move to.', 'Step out into your code (execution_step out), then jump.');
    const jump = engine.jump.bind(engine);
    return () => jump(threadId, top.file!, target.line);
  }
  if (!engine.restartFrame) {
    throw new DebugError('UNSUPPORTED', `${language} cannot restart a frame.`, 'execution_jump { line } moves the next statement within the current function.');
  }
  const frame = await frameAt(target.restartFrame);
  if (frame.async) throw new DebugError('INVALID_ARGUMENT', `Frame ${target.restartFrame} is an awaiting caller, not a running frame.`, 'Pick a frame without [async] from inspect_stack.');
  const restart = engine.restartFrame.bind(engine);
  return () => restart(threadId, frame.id);
}
