/**
 * Where an exception that crossed awaits came from. An async method's exception is caught by the
 * compiler's handler, stored in its task and thrown again in the awaiting method when it takes the
 * task's result; by then the methods it came through have returned, and when their callers resumed
 * inline the thread's stack even holds them in reverse. The exception's own stack trace keeps the way
 * it came (the runtime appends each rethrow), so it is read once, at the stop, by running the
 * exception's `StackTrace` getter.
 */
import type { FrameInfo } from '../../../core/types.js';
import type { Native } from './nativeSession.js';
import type { FuncEval } from './values/funcEval.js';
import type { ValueReader } from './values/valueReader.js';

/** `   at Ns.Type.Method(String city) in /src/File.cs:line 14` */
const FRAME_LINE = /^\s*at (.+?)\((.*)\)(?: in (.+):line (\d+))?\s*$/;
const EXTERNAL = '[External Code]';
const MAX_PATH_FRAMES = 64;

/** The frames the current exception of `threadId` came through, the throw site first; empty when it crossed no await. */
export async function exceptionPath(native: Native, reader: ValueReader, funcEval: FuncEval, threadId: number): Promise<FrameInfo[]> {
  const { value: exception } = await native.call('currentException', { threadId });
  const getter = reader.catalog.findMethod(exception.chain ?? [], 'get_StackTrace', 0, false);
  if (!getter) return [];
  const text = (await funcEval.call(threadId, getter, exception, [], "reading the exception's stack trace"))?.str;
  return text ? parseStackTrace(text) : [];
}

/** A .NET stack trace's frames: those with a source line as they are, each run of the others as one external frame. */
export function parseStackTrace(text: string): FrameInfo[] {
  const frames: FrameInfo[] = [];
  for (const line of text.split('\n')) {
    const m = FRAME_LINE.exec(line.trimEnd());
    if (!m) continue;
    const [, name, , file, at] = m;
    if (file && at) frames.push({ id: 0, name: name!, file, line: Number(at), column: 0 });
    else if (frames.at(-1)?.name !== EXTERNAL) frames.push({ id: 0, name: EXTERNAL, line: 0, column: 0, presentationHint: 'label' });
    if (frames.length >= MAX_PATH_FRAMES) break;
  }
  return frames;
}
