/**
 * Typed errors. Every failure the agent can see carries a stable code (the first word of the text
 * it reads) and a next step. Engines throw these; the MCP layer renders them as `isError` results.
 */
export const ErrorCodes = [
  'SESSION_NOT_FOUND',
  'SESSION_AMBIGUOUS',
  'PROGRAM_NOT_FOUND',
  'PATH_NOT_ALLOWED',
  'SESSION_LIMIT',
  'RESULT_TOO_LARGE',
  'ENGINE_UNAVAILABLE',
  'UNSUPPORTED',
  'JUMP_REFUSED',
  'INVALID_ARGUMENT',
  'INVALID_STATE',
  'TIMEOUT',
  'CANCELLED',
  'EVALUATION_FAILED',
  'VARIABLE_NOT_FOUND',
  'BREAKPOINT_NOT_FOUND',
  'WATCH_NOT_FOUND',
  'FRAME_NOT_FOUND',
  'THREAD_NOT_FOUND',
  'LAUNCH_FAILED',
  'LAUNCH_BUILD_FAILED',
  'ATTACH_FAILED',
  'NOTHING_LISTENING',
  'NOT_A_DEBUG_PORT',
  'DEBUGGING_DISABLED',
  'ADAPTER_FAILED',
  'DAEMON_UNAVAILABLE',
  'TARGET_UNAVAILABLE',
  'TARGET_VERSION_MISMATCH',
  'TEST_NOT_FOUND',
  'FRAMEWORK_NOT_INSTALLED',
  'INTERNAL',
] as const;

export type ErrorCode = (typeof ErrorCodes)[number];

export class DebugError extends Error {
  override readonly name = 'DebugError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** What the agent should do next; shown after the message. */
    readonly hint?: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }

  /** The text the model reads: `CODE: message Next: hint`. */
  toText(): string {
    return `${this.code}: ${this.message}${this.hint ? `\nNext: ${this.hint}` : ''}`;
  }
}

export function isDebugError(e: unknown): e is DebugError {
  return e instanceof DebugError;
}

/** Wraps anything thrown into a DebugError, keeping DebugErrors as they are. */
export function toDebugError(e: unknown, fallback: ErrorCode = 'INTERNAL', hint?: string): DebugError {
  if (isDebugError(e)) return e;
  const message = e instanceof Error ? e.message : String(e);
  return new DebugError(fallback, message, hint);
}
