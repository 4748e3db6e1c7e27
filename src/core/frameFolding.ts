/**
 * What a stack says once the frames an agent does not read are folded: the one rule behind the
 * exception autopsy's stack, inspect_stack's first page and the hang report's stacks.
 */
import type { FrameInfo } from './types.js';

/**
 * One entry of a folded stack, named by its first frame (`index`: that frame's place in the stack):
 * a frame; a frame repeated `times` in a row (recursion); or `external` frames in a row folded.
 */
export interface StackEntry {
  index: number;
  name: string;
  file?: string;
  line: number;
  external?: number;
  times?: number;
  async?: boolean;
  /** An awaiting caller's catch that takes the exception (the exception autopsy): the catch's first statement; `filter`: a `when` filter decides. */
  catches?: { file?: string; line: number; filter?: boolean };
}

/** Not the user's code: no source, or source the runtime marks as a library's or its own. */
export function isExternal(frame: FrameInfo): boolean {
  return !frame.file || frame.presentationHint === 'subtle';
}

/**
 * A stack (top first) folded: each run of external frames into one entry, each run of one user frame
 * (same function, line and kind) into one entry with its count. The innermost frame stays itself:
 * it is where the thread is, whosever code that is.
 */
export function foldFrames(frames: FrameInfo[]): StackEntry[] {
  const entries: StackEntry[] = [];
  frames.forEach((frame, index) => {
    const external = index > 0 && isExternal(frame);
    const last = entries.at(-1);
    if (external && last?.external) last.external++;
    else if (!external && last && !last.external && sameFrame(last, frame)) last.times = (last.times ?? 1) + 1;
    else entries.push({ index, name: frame.name, file: frame.file, line: frame.line, ...(external ? { external: 1 } : {}), ...(frame.async ? { async: true } : {}) });
  });
  return entries;
}

function sameFrame(entry: StackEntry, frame: FrameInfo): boolean {
  return entry.name === frame.name && entry.file === frame.file && entry.line === frame.line && !entry.async === !frame.async;
}
