/** A C# expression that does not parse, or uses syntax the debugger does not evaluate. */
export class CSharpSyntaxError extends Error {
  override readonly name = 'CSharpSyntaxError';
  /**
   * @param reason what is wrong, without the position
   * @param start offset of the offending text in the expression (0-based)
   * @param end offset just past it
   * @param unsupported valid C# the debugger's evaluator does not run (a lambda, a switch expression…)
   * @param assigns an assignment or ++/--: the variable or member it writes, null when the parser
   *   cannot name it (an element); what an evaluation without side effects refuses it for
   */
  constructor(
    readonly reason: string,
    readonly start: number,
    readonly end: number,
    readonly unsupported = false,
    readonly assigns?: string | null,
  ) {
    super(`${reason} (at column ${start + 1})`);
  }
}
