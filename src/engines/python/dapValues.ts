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

/**
 * pydevd lists an attribute whose read raised (a property that raises, an unset `__slots__` slot)
 * with the traceback of its own getattr as the value, a str; Python's verdict says it in one line.
 */
const FAILED_READ = /^'Traceback \(most recent call last\):\\n {2}File "[^"]*pydevd_resolver\.py", line \d+, in \w+\\n/;

export function toVariable(variable: DebugProtocol.Variable): VariableInfo {
  const failedRead = FAILED_READ.test(variable.value);
  return {
    name: variable.name,
    value: failedRead ? `<raises ${pythonErrorLine(variable.value.slice(1, -1).replaceAll('\\n', '\n').replaceAll("\\'", "'"))}>` : variable.value,
    type: failedRead ? undefined : variable.type,
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
    // pydevd's mode `always` is the filter "raised exceptions": whether it will be caught is unknown.
    kind: body.breakMode === 'always' ? 'raised' : body.breakMode,
    stackTrace: body.details?.stackTrace,
    ...(causes.length ? { causes } : {}),
  };
}

/** Python's own one-line verdict from a traceback: `NameError: name 'x' is not defined`. */
export function pythonErrorLine(text: string): string {
  const lines = text.split('\n').map((l) => l.trimEnd()).filter(Boolean);
  return lines.at(-1) ?? text;
}
