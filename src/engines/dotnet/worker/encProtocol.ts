/**
 * What the .NET worker (worker/*.cs, Messages.cs) takes and answers for Edit and Continue; the server
 * asks it, the debugger host applies what it answers. Lines and columns are 1-based.
 */

export interface SourceSpan {
  startLine: number;
  startColumn: number;
  endLine: number;
  endColumn: number;
}

/** A frame running a module's code, as Roslyn needs it to check edits and map the statement. */
export interface ActiveStatement extends SourceSpan {
  module: string;
  token: number;
  version: number;
  ilOffset: number;
  document: string;
  leaf: boolean;
  /** The frame is inside its statement (a caller, or a stop mid-statement). */
  partial: boolean;
  /** The frame runs an older version of its method. */
  stale: boolean;
}

export interface ModuleInput {
  /** The path the module was loaded from. */
  path: string;
  /** Source files edited since the module was built: their bytes as built (base64), by path. */
  originals?: Record<string, string>;
}

export interface UpdateRequest {
  session: string;
  modules: ModuleInput[];
  capabilities: string[];
  activeStatements?: ActiveStatement[];
  files?: string[];
}

export interface EncDiagnostic {
  id: string;
  severity: 'error' | 'warning' | 'info' | 'hidden';
  message: string;
  file?: string;
  line?: number;
  column?: number;
  rudeEdit: boolean;
}

export interface DeltaSequencePoint extends SourceSpan {
  ilOffset: number;
  document: string;
  hidden: boolean;
}

export interface DeltaMethod {
  token: number;
  name: string;
  /** TypeDef token of an added method's type (0 for an updated one). */
  declaringType: number;
  added: boolean;
  points: DeltaSequencePoint[];
  scopes: { startOffset: number; endOffset: number; variables: { slot: number; name: string; hidden: boolean }[] }[];
  /** Custom debug information by kind GUID (lower case), base64. */
  customDebugInformation: Record<string, string>;
}

export interface ModuleDelta {
  module: string;
  mvid: string;
  metadata: string;
  il: string;
  pdb: string;
  updatedMethods: number[];
  updatedTypes: number[];
  requiredCapabilities: string[];
  methods: DeltaMethod[];
  addedTypes: { token: number; name: string; namespace: string; enclosing: number }[];
  /** Methods moved without new code: [old line, new line] pairs per file. */
  lineUpdates: { file: string; lines: [number, number][] }[];
  /** Where each active statement went: the remap target of frames stopped there. */
  activeStatements: { token: number; version: number; ilOffset: number; newSpan: SourceSpan }[];
}

export interface UpdateResult {
  status: 'none' | 'ready' | 'blocked';
  updates: ModuleDelta[];
  diagnostics: EncDiagnostic[];
  /** Source files that differ from what the program runs. */
  changedFiles: string[];
  notes: string[];
}
