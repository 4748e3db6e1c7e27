/**
 * A stop's current frame: the frame the stop is about, which its source, locals and watches show
 * and which every call that takes a frame (variables, evaluate, set value, step) means when it
 * names none. As in Visual Studio with Just My Code, that is the innermost frame of the user's code;
 * an engine, or a wrapper that knows the user's code better (a test run), names it with the stop.
 * Otherwise it is the innermost frame with source: a pause in the runtime's own code shows where
 * the program's code is.
 */
import type { FrameInfo } from './types.js';

export function currentFrameIndex(frames: FrameInfo[], named?: number): number {
  if (named !== undefined && Number.isInteger(named) && named >= 0 && named < frames.length) return named;
  const withSource = frames.findIndex((f) => f.file);
  return withSource < 0 ? 0 : withSource;
}
