/**
 * The native debugger session in this (host) process: one `call(command, args)` entry whose commands
 * run on the addon's debugger thread (native/src/debugger/commands.cpp), answering parsed JSON.
 */
import { loadAddon, type NativeSession } from '../addon.js';
import type { NativeEvent, NativeFrame, NativeThread, NativeType } from './nativeEvents.js';
import type { NativeValue } from './values/nativeValue.js';

/** What each native command takes and answers. */
export interface NativeCommands {
  /** `resume`: the debuggee's resume descriptor (POSIX) or main thread (Windows), -1 when the startup handshake was prepared; `marks`: moments of the handshake, ms since the epoch. */
  attachAtStartup: [{ pid: number; resume: number; timeoutMs: number; dbgshimPath?: string }, { pid: number; access: string; marks?: Record<string, number> }];
  attachRunning: [{ pid: number; timeoutMs: number; dbgshimPath?: string }, { pid: number; access: string; marks?: Record<string, number> }];
  configure: [{ stopOnFirstChance?: boolean; stopOnUnhandled?: boolean; holdModuleLoads?: boolean }, object];
  continue: [object, { continued: boolean }];
  release: [object, { released: boolean }];
  pause: [object, { wasRunning: boolean }];
  detach: [object, { detached: boolean }];
  threads: [object, { threads: NativeThread[] }];
  stack: [{ threadId: number; start: number; count: number }, { frames: NativeFrame[]; total: number }];
  setUserCode: [{ module: number; user: boolean; nonUserTokens: number[]; disableOptimizations: boolean }, { optimizationsDisabled: boolean }];
  createBreakpoint: [{ module: number; token: number; ilOffset: number }, { id: number }];
  removeBreakpoint: [{ id: number }, object];
  setHitFilter: [{ id: number; program: FilterOp[] }, object];
  step: [{ threadId: number; kind: 'over' | 'into' | 'out'; ranges: [number, number][]; justMyCode: boolean }, object];
  cancelStep: [object, object];
  frameValues: [{ threadId: number; frameIndex: number }, { arguments: (NativeValue | null)[]; locals: (NativeValue | null)[] }];
  variable: [{ threadId: number; frameIndex: number; kind: 'local' | 'argument'; index: number }, { value: NativeValue }];
  fields: [{ h: number; fields: (FieldRef | { path: FieldRef[] })[] }, { values: (NativeValue | { error: number })[] }];
  staticField: [FieldRef & { threadId: number; frameIndex: number; h?: number }, { value: NativeValue }];
  items: [{ h: number; start: number; count: number }, { values: (NativeValue | null)[]; count: number }];
  declaredTypes: [{ hs: number[] }, { types: (NativeType | null)[] }];
  call: [
    {
      threadId: number;
      module: number;
      method: number;
      args: CallArg[];
      typeArgsFrom?: number;
      declaringModule?: number;
      declaringType?: number;
      construct?: boolean;
      methodTypeArgsFrom?: number;
      /** Exact type arguments, the declaring type's then the method's (they replace the two above). */
      typeArgs?: TypeSpec[];
    },
    EvalOutcome,
  ];
  newObject: [{ threadId: number; type: TypeSpec; bytes?: string }, EvalOutcome];
  newArray: [{ threadId: number; elem: TypeSpec; length: number }, EvalOutcome];
  newString: [{ threadId: number; text: string }, EvalOutcome];
  abortEval: [{ rude: boolean }, { waiting?: boolean }];
  setValue: [{ target: SetTarget; source: CallArg | { bytes: string } }, object];
  valueBytes: [{ h: number } | { target: SetTarget }, { bytes: string }];
  currentException: [{ threadId: number }, { value: NativeValue }];
  returnValue: [{ threadId: number; frameIndex: number; ilOffset: number }, { value: NativeValue }];
  blockingObjects: [{ threadId: number }, { waits: { reason: 'lock' | 'wait'; timeout: number; owner?: number; value?: NativeValue }[] }];
  setIp: [{ threadId: number; ilOffset: number; check?: boolean }, object];
  keep: [{ h: number }, { kept: number }];
  unkeep: [{ kept: number }, object];
  sameObject: [{ h: number; kept: number }, { same: boolean }];
  threadObject: [{ threadId: number }, { value: NativeValue }];
  heapObjects: [
    { classes: { module: number; token: number }[]; max?: number; timeoutMs?: number },
    { valid: boolean; complete?: boolean; objects: NativeValue[]; matched: number; scanned: number },
  ];
  enableEnc: [{ module: number }, { enabled: boolean }];
  applyChanges: [{ module: number; metadata: string; il: string }, object];
  remap: [{ threadId: number; ilOffset: number }, object];
}

/** A field of a declaring type: module handle, TypeDef token, FieldDef token. */
export interface FieldRef {
  module: number;
  type: number;
  field: number;
}

/** A C# type as the native side names it. */
export type FilterType = 'i8' | 'u8' | 'i16' | 'u16' | 'i32' | 'u32' | 'i64' | 'u64' | 'f32' | 'f64' | 'bool' | 'string' | 'null';

type FilterArithmetic = '+' | '-' | '*' | '/' | '%' | '&' | '|' | '^';
type FilterComparison = '==' | '!=' | '<' | '<=' | '>' | '>=';

/** A breakpoint condition compiled for the debugger thread (host/hitFilter.ts, native hit_filter.h). */
export type FilterOp =
  | { op: 'var'; kind: 'local' | 'argument'; index: number; et: number }
  | ({ op: 'field'; guardModule: number; guardType: number; et: number } & FieldRef)
  | { op: 'length' }
  | { op: 'const'; type: FilterType; v?: string | boolean }
  | { op: 'convert' | 'negate' | 'complement'; type: FilterType }
  | { op: 'binary'; type: FilterType; operator: FilterArithmetic }
  | { op: 'compare'; operator: FilterComparison }
  | { op: 'not' | 'and' | 'or' };

/** A runtime type for the native side (native/src/debugger/eval_commands.h, TypeFromSpec). */
export type TypeSpec = { of: number } | { module: number; token: number; args?: TypeSpec[]; valuetype?: boolean } | { elem: TypeSpec; rank?: number };

/** An argument of a func-eval (or a new value): a value by handle, a primitive literal, or null. */
export type CallArg = { h: number; unbox?: boolean } | { et: number; v: string } | { null: true };

export type EvalOutcome = { value: NativeValue } | { exception: NativeValue } | { void: true };

/** Where a value lives, to assign it. */
export type SetTarget =
  | { kind: 'local' | 'argument'; threadId: number; frameIndex: number; index: number }
  | ({ kind: 'field'; h: number } & FieldRef)
  | { kind: 'element'; h: number; index: number }
  | ({ kind: 'static' } & FieldRef);

export class Native {
  private readonly session: NativeSession;

  constructor(onEvent: (event: NativeEvent) => void) {
    const addon = loadAddon();
    this.session = new addon.Session((json) => onEvent(JSON.parse(json) as NativeEvent));
  }

  async call<K extends keyof NativeCommands>(command: K, args: NativeCommands[K][0]): Promise<NativeCommands[K][1]> {
    return JSON.parse(await this.session.call(command, args)) as NativeCommands[K][1];
  }

  async close(): Promise<void> {
    await this.session.close();
  }
}
