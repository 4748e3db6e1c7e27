/**
 * What the .NET worker (worker/Eval/*.cs, EvalMessages.cs) takes and answers to compile a C#
 * expression for a stopped frame; the debugger host asks (through the server) and loads what it
 * answers into the debuggee. Columns are 1-based positions in the expression as the user wrote it.
 */

/** A type as the stopped frame declares it (TypeInput in EvalMessages.cs). */
export type TypeInput =
  | { kind: 'named'; assembly: string; name: string; args?: TypeInput[]; tupleNames?: (string | null)[] }
  | { kind: 'array'; elem: TypeInput; rank: number }
  | { kind: 'primitive'; name: string }
  | { kind: 'unknown' };

export interface CompileRequest {
  expression: string;
  /** False: refuse an expression that assigns or calls what may change the program. */
  sideEffects: boolean;
  /** What such an evaluation may call besides getters and compiler-written members (host/evaluation/sideEffects.ts). */
  pure?: { types: string[]; methods: string[] };
  /** Paths of the assemblies the debuggee has loaded. */
  references: string[];
  /** The namespace of the type whose method the frame runs. */
  namespace: string;
  declaringType?: TypeInput;
  /** Why the frame would have no `this`, said when it has none (host/evaluation/missingThis.ts). */
  noThis?: string;
  /** The frame's variables (`this` included), as declared. */
  variables: { name: string; type: TypeInput }[];
  /** An alias names a namespace, a type definition (`type`: its metadata name) or any type (`input`: `using T = int[];`). */
  imports: { namespaces: string[]; staticTypes: string[]; aliases: { name: string; namespace?: string; type?: string; input?: TypeInput }[] };
}

export interface CompileDiagnostic {
  id: string;
  message: string;
  column?: number;
}

export interface CompileResult {
  /** The assembly (base64), when it compiled. */
  assembly?: string;
  methodToken: number;
  /** The frame's variables the method takes, in order (`this` too); by reference when the expression assigns them. */
  parameters: { name: string; byRef: boolean }[];
  resultType?: string;
  void: boolean;
  diagnostics: CompileDiagnostic[];
  /** Why a side-effect-free evaluation refuses the expression. */
  sideEffect?: string;
  notes: string[];
}
