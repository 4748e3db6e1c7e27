/**
 * The numbers the core uses for frames, scopes and values, mapped to V8's call frames and
 * object ids. Valid while the program stays paused; numbers are never reused, so a stale one is
 * "not found" rather than some other value.
 */
import type { Protocol } from 'devtools-protocol';

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

export class ValueHandles {
  private next = 1;
  private readonly frames = new Map<number, CallFrame>();
  private readonly values = new Map<number, ValueHandle>();

  addFrame(frame: CallFrame): number {
    const id = this.next++;
    this.frames.set(id, frame);
    return id;
  }

  frame(id: number): CallFrame | undefined {
    return this.frames.get(id);
  }

  add(handle: ValueHandle): number {
    const id = this.next++;
    this.values.set(id, handle);
    return id;
  }

  get(id: number): ValueHandle | undefined {
    return this.values.get(id);
  }

  clear(): void {
    this.frames.clear();
    this.values.clear();
  }
}
