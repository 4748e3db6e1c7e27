/** debugpy's answers in the core's vocabulary. */
import type { DebugProtocol } from '@vscode/debugprotocol';
import type { EvaluateResult, ExceptionInfo, FrameInfo, ScopeInfo, VariableInfo } from '../../core/types.js';
import { causesFromTraceback, withoutPauseNote } from './exceptionChain.js';

/** debugpy lists a cause's traceback frames after the thread's own, named like this. */
const CHAINED_FRAME = '[Chained Exc: ';

export function toFrame(frame: DebugProtocol.StackFrame): FrameInfo {
  return {
    id: frame.id,
    name: frame.name,
    file: frame.source?.path,
    line: frame.line,
    column: frame.column,
    presentationHint: frame.presentationHint,
    ...(frame.name.startsWith(CHAINED_FRAME) ? { chainedException: true } : {}),
  };
}

export function toScope(scope: DebugProtocol.Scope): ScopeInfo {
  return {
    name: scope.name,
    ref: scope.variablesReference,
    // debugpy marks Globals cheap, but module globals are mostly imports: not worth a default fetch.
    expensive: scope.expensive || /^globals$/i.test(scope.name),
    namedVariables: scope.namedVariables,
    indexedVariables: scope.indexedVariables,
  };
}

export function toVariable(variable: DebugProtocol.Variable): VariableInfo {
  return {
    name: variable.name,
    value: variable.value,
    type: variable.type,
    ref: variable.variablesReference,
    namedVariables: variable.namedVariables,
    indexedVariables: variable.indexedVariables,
    evaluateName: variable.evaluateName,
  };
}

export function toEvaluateResult(body: {
  result?: string;
  value?: string;
  type?: string;
  variablesReference?: number;
  namedVariables?: number;
  indexedVariables?: number;
}): EvaluateResult {
  return {
    value: body.result ?? body.value ?? '',
    type: body.type,
    ref: body.variablesReference ?? 0,
    namedVariables: body.namedVariables,
    indexedVariables: body.indexedVariables,
  };
}

export function toExceptionInfo(body: DebugProtocol.ExceptionInfoResponse['body']): ExceptionInfo {
  const causes = causesFromTraceback(body.details?.stackTrace);
  return {
    type: withoutPauseNote(body.details?.typeName ?? body.exceptionId),
    message: body.details?.message ?? body.description,
    kind: body.breakMode,
    stackTrace: body.details?.stackTrace,
    ...(causes.length ? { causes } : {}),
  };
}

/** Python's own one-line verdict from a traceback: `NameError: name 'x' is not defined`. */
export function pythonErrorLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trimEnd()).filter(Boolean);
  return lines.at(-1) ?? text;
}
