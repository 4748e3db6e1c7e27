/** The events the native debugger thread sends (JSON), as TypeScript types. `held`: the process waits for `release`/`continue`. */
export type NativeEvent =
  | { event: 'process'; pid: number }
  | {
      event: 'module';
      reason: 'load';
      handle: number;
      path: string;
      base: string;
      size: number;
      dynamic: boolean;
      inMemory: boolean;
      /** A module of the shared framework's folder with no symbols beside it (never held). */
      framework: boolean;
      held: boolean;
    }
  | { event: 'module'; reason: 'unload'; handle: number }
  | { event: 'thread'; reason: 'started' | 'exited'; threadId: number }
  | { event: 'userBreak'; threadId: number }
  | { event: 'breakpoint'; id: number; threadId: number }
  | { event: 'stepComplete'; threadId: number; reason: string }
  | {
      event: 'exception';
      kind: 'firstChance' | 'userFirstChance' | 'catchHandlerFound' | 'unhandled';
      threadId: number;
      type: string;
      /** The exception's class, then each base class. */
      types: string[];
      message: string;
      /** Where the exception will be caught (catchHandlerFound): a method of the user's code. */
      handler: { module: number; token: number; ilOffset: number } | null;
      held: boolean;
    }
  | { event: 'log'; message: string }
  /** A frame running an older version of an edited method reached a statement: it may move to the new version (held). */
  | { event: 'remapOpportunity'; threadId: number; module: number; token: number; oldVersion: number; newVersion: number; ilOffset: number }
  /** The frame now runs the new version (held). */
  | { event: 'remapComplete'; threadId: number }
  | { event: 'exited' }
  | { event: 'debuggerError'; hr: number; code: number };

/** A type as the native side describes it (native/src/debugger/type_json.cpp). */
export interface NativeType {
  /** CorElementType. */
  et: number;
  module?: number;
  path?: string;
  token?: number;
  args?: NativeType[];
  rank?: number;
  elem?: NativeType;
}

export type NativeFrame =
  | { kind: 'il'; module: number; token: number; ilOffset: number; mapping: number; typeArgs?: NativeType[]; version?: number }
  | { kind: 'native' }
  | { kind: 'internal'; frameType: number };

export interface NativeThread {
  id: number;
  name?: string;
}
