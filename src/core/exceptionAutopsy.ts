/**
 * The exception autopsy: what an agent asks after an exception stop, read with the stop itself —
 * the cause chain (the engine reads it), the stack with the user's frames kept and runs of library
 * or runtime frames folded, and the source at the throw site when that is not where it stopped.
 * Every part is capped, and says what it left out.
 */
import { foldFrames, type StackEntry } from './frameFolding.js';
import type { ExceptionAutopsy, StopFrame } from './sessionTypes.js';
import { readSourceWindow } from './sourceReader.js';
import type { CatchSite, ExceptionInfo, FrameInfo } from './types.js';
import { capText, summaryText } from './valueText.js';

export const MAX_CAUSES = 5;
const MESSAGE_CHARS = 400;
const CAUSE_MESSAGE_CHARS = 200;
const LISTED_USER_FRAMES = 8;
/** The runtime's own stack text, kept for reference: `frames` and `causes` say the same, structured. */
const STACK_TEXT_CHARS = 2_000;

export function exceptionAutopsy(info: ExceptionInfo, stack: { frames: FrameInfo[]; totalFrames?: number }, stopped: StopFrame): ExceptionAutopsy {
  const { path, catchSites, ...rest } = info;
  const autopsy: ExceptionAutopsy = { ...rest };
  // The way it came, then the awaiting callers of where it is now (the thread's own frames are that way, run in reverse).
  if (path?.length) stack = { frames: [...path, ...stack.frames.filter((f) => f.async)] };
  if (info.message !== undefined) autopsy.message = capText(info.message, MESSAGE_CHARS);
  if (info.stackTrace !== undefined) autopsy.stackTrace = capText(info.stackTrace, STACK_TEXT_CHARS);
  if (info.causes?.length) {
    autopsy.causes = info.causes.slice(0, MAX_CAUSES).map((c) => ({ ...c, message: c.message === undefined ? undefined : summaryText(c.message, CAUSE_MESSAGE_CHARS) }));
    if (info.causes.length > MAX_CAUSES) autopsy.moreCauses = info.causes.length - MAX_CAUSES;
  }
  const folded = withCatchSites(autopsyStack(stack.frames, stack.totalFrames), catchSites ?? []);
  if (folded.frames.length) {
    autopsy.frames = folded.frames;
    if (folded.moreFrames) autopsy.moreFrames = folded.moreFrames;
  }
  const thrown = info.thrownAt;
  if (thrown?.file && (thrown.file !== stopped.file || thrown.line !== stopped.line)) autopsy.throwSource = readSourceWindow(thrown.file, thrown.line, 1, 1);
  return autopsy;
}

/** The thread's own frames (a cause's traceback frames left out), folded, as far as its first LISTED_USER_FRAMES entries of the user's code. */
export function autopsyStack(frames: FrameInfo[], totalFrames?: number): { frames: StackEntry[]; moreFrames: number } {
  // A cause's frames come after all of the thread's own: once one shows, the thread's stack is complete.
  const firstChained = frames.findIndex((f) => f.chainedException);
  const own = firstChained >= 0 ? frames.slice(0, firstChained) : frames;
  const entries = foldFrames(own);
  const cut = entries.flatMap((e, i) => (e.external ? [] : [i]))[LISTED_USER_FRAMES];
  const total = firstChained >= 0 ? own.length : Math.max(totalFrames ?? frames.length, frames.length);
  return cut === undefined ? { frames: entries, moreFrames: total - own.length } : { frames: entries.slice(0, cut), moreFrames: total - entries[cut].index };
}

/** The awaiting callers that catch the exception marked; the chain ends at the first that surely does (the frames past it never see it). */
function withCatchSites(folded: { frames: StackEntry[]; moreFrames: number }, sites: CatchSite[]): { frames: StackEntry[]; moreFrames: number } {
  if (sites.length === 0) return folded;
  const frames = folded.frames.map((entry) => {
    const site = entry.async ? sites.find((s) => s.name === entry.name && s.line === entry.line) : undefined;
    return site ? { ...entry, catches: { ...site.at, ...(site.filter ? { filter: true } : {}) } } : entry;
  });
  const end = frames.findIndex((e) => e.catches && !e.catches.filter);
  return end < 0 ? { frames, moreFrames: folded.moreFrames } : { frames: frames.slice(0, end + 1), moreFrames: 0 };
}
