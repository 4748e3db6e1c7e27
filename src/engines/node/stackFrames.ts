/**
 * The frames of a paused isolate as the agent reads them: V8's call frames, then the callers
 * that await them (V8's async stack chain, marked async), each told in its original source
 * where a source map leads to one on disk.
 */
import type { Protocol } from 'devtools-protocol';
import type { FrameInfo } from '../../core/types.js';
import { isDependency, type ScriptRegistry } from './scriptRegistry.js';
import type { CallFrame, ValueHandles } from './valueHandles.js';

/** Async callers beyond this many are left out (a long promise chain is noise past this). */
const MAX_ASYNC_FRAMES = 64;

type Entry = { kind: 'sync'; frame: CallFrame } | { kind: 'async'; frame: Protocol.Runtime.CallFrame };

export class StackFrames {
  private readonly entries: Entry[];
  private readonly ids: number[] = [];

  constructor(
    callFrames: CallFrame[],
    asyncTrace: Protocol.Runtime.StackTrace | undefined,
    private readonly scripts: ScriptRegistry,
    private readonly handles: ValueHandles,
    /** Frames of this script (the engine's own preload) are not the program's: left out. */
    hiddenUrl?: string,
  ) {
    const shown = (scriptId: string) => !hiddenUrl || scripts.urlOf(scriptId) !== hiddenUrl;
    this.entries = callFrames.filter((frame) => shown(frame.location.scriptId)).map((frame) => ({ kind: 'sync', frame }));
    let asyncCount = 0;
    for (let trace = asyncTrace; trace && asyncCount < MAX_ASYNC_FRAMES; trace = trace.parent) {
      for (const frame of trace.callFrames.slice(0, MAX_ASYNC_FRAMES - asyncCount)) if (shown(frame.scriptId)) this.entries.push({ kind: 'async', frame });
      asyncCount += trace.callFrames.length;
    }
  }

  get total(): number {
    return this.entries.length;
  }

  page(start: number, levels: number): Promise<FrameInfo[]> {
    const end = Math.min(this.entries.length, start + levels);
    const wanted: Promise<FrameInfo>[] = [];
    for (let i = start; i < end; i++) wanted.push(this.info(i));
    return Promise.all(wanted);
  }

  private async info(index: number): Promise<FrameInfo> {
    const entry = this.entries[index];
    const { scriptId, lineNumber, columnNumber } = entry.kind === 'sync' ? entry.frame.location : entry.frame;
    this.ids[index] ??= this.handles.addFrame(entry.kind === 'sync' ? entry : { kind: 'async', name: entry.frame.functionName });
    const at = await this.scripts.location(scriptId, lineNumber, columnNumber ?? 0);
    const url = entry.frame.url || this.scripts.urlOf(scriptId);
    const name = entry.frame.functionName || '<anonymous>';
    return {
      id: this.ids[index],
      name: at.file || !url ? name : `${name} [${url}]`,
      file: at.file,
      line: at.line,
      column: at.column,
      presentationHint: at.file && !isDependency(at.file) ? 'normal' : 'subtle',
      async: entry.kind === 'async' || undefined,
    };
  }
}
