/**
 * The numbers the core uses for frames, scopes and values, mapped to V8's call frames and object
 * ids. One set per isolate, numbered from a counter all of them share, so a number names one
 * thing engine-wide. Valid while that isolate stays paused; numbers are never reused, so a stale
 * one is "not found" rather than some other value.
 */
import type { Protocol } from 'devtools-protocol';
import { DebugError } from '../../core/errors.js';

export type CallFrame = Protocol.Debugger.CallFrame;

export interface ScopeEntry {
  /** Index in the frame's scope chain (what `setVariableValue` calls scopeNumber). */
  index: number;
  scope: Protocol.Debugger.Scope;
}

export type ValueHandle =
  /** One scope, or the innermost block scopes merged with their function's local scope. */
  | { kind: 'scope'; frame: CallFrame; scopes: ScopeEntry[]; withReturnValue: boolean }
  | { kind: 'object'; object: Protocol.Runtime.RemoteObject; frame?: CallFrame };

/** A frame handle: a paused V8 frame, or a frame of an async caller (across an await), which keeps no values. */
export type FrameHandle = { kind: 'sync'; frame: CallFrame } | { kind: 'async'; name: string };

export class HandleCounter {
  private next = 1;
  take(): number {
    return this.next++;
  }
}

export class ValueHandles {
  private readonly frames = new Map<number, FrameHandle>();
  private readonly values = new Map<number, ValueHandle>();

  constructor(private readonly counter: HandleCounter) {}

  addFrame(frame: FrameHandle): number {
    const id = this.counter.take();
    this.frames.set(id, frame);
    return id;
  }

  frame(id: number): FrameHandle | undefined {
    return this.frames.get(id);
  }

  add(handle: ValueHandle): number {
    const id = this.counter.take();
    this.values.set(id, handle);
    return id;
  }

  has(id: number): boolean {
    return this.values.has(id);
  }

  /** A value of an earlier stop is gone once the program ran on: VARIABLE_NOT_FOUND. */
  get(id: number): ValueHandle {
    const handle = this.values.get(id);
    if (handle) return handle;
    throw new DebugError('VARIABLE_NOT_FOUND', `Value ${id} belongs to an earlier stop.`, 'Read the values again at this stop (inspect_variables).');
  }

  clear(): void {
    this.frames.clear();
    this.values.clear();
  }
}
