/**
 * Evaluation of the C# the hand-written evaluator refuses (lambdas, LINQ, query syntax, anonymous
 * types, switch expressions, patterns…), as Visual Studio does it: the server's worker (Roslyn)
 * compiles the expression into a static method whose parameters are the frame's variables, the
 * assembly is loaded into the program, and the method is called by func-eval with the variables'
 * values; its result is a value like any other. Compiled methods are kept per expression and frame
 * shape, both here (the bytes) and in the program (the loaded module), so a condition compiled once
 * costs one func-eval per hit.
 */
import { DebugError } from '../../../../core/errors.js';
import type { CompileRequest, CompileResult } from '../../worker/evalProtocol.js';
import { askServer } from '../serverCalls.js';
import type { FrameHandle } from '../stackReader.js';
import type { FuncEval } from '../values/funcEval.js';
import type { AssemblyLoader } from './assemblyLoader.js';
import { fromNative, type EvalValue } from './evalValue.js';
import type { FrameShapes } from './frameShape.js';
import { PURE_CALLS, sideEffectRefusal } from './sideEffects.js';

/** Roslyn's first compile in a server loads it and the framework's metadata: seconds, once. */
const COMPILE_WAIT_MS = 30_000;
const MAX_KEPT = 256;

export class CompiledEvaluation {
  private readonly compiled = new Map<string, CompileResult>();
  /** The module each compiled method was loaded as, by the same key. */
  private readonly loaded = new Map<string, number>();

  constructor(
    private readonly shapes: FrameShapes,
    private readonly loader: AssemblyLoader,
    private readonly funcEval: FuncEval,
  ) {}

  async evaluate(expression: string, frame: FrameHandle, sideEffects: boolean): Promise<EvalValue> {
    let shape = await this.shapes.read(frame);
    const key = `${sideEffects ? 'se' : 'nse'}\0${expression}\0${shape.key}`;
    const compiled = await this.compile(key, expression, frame, shape.variables, sideEffects);
    let module = this.loaded.get(key);
    if (module === undefined) {
      module = await this.loader.load(compiled.assembly!, { threadId: frame.threadId, frameIndex: frame.nativeIndex });
      keep(this.loaded, key, module);
      // The loading ran the program: the values read before it are gone.
      shape = await this.shapes.read(frame);
    }
    const args = compiled.parameters.map(({ name }) => {
      const value = shape.values.get(name);
      if (!value) throw new DebugError('EVALUATION_FAILED', `${name} has no value in this frame any more`);
      return { h: value.h };
    });
    const method = { module, token: compiled.methodToken, isStatic: true, declaringModule: module, declaringType: 0, sig: { hasThis: false, genericParams: 0, returnType: { kind: 'other' as const, et: 0 }, params: [] } };
    const value = await this.funcEval.call(frame.threadId, method, undefined, args, expression);
    return value ? fromNative(value) : { kind: 'void' };
  }

  private async compile(key: string, expression: string, frame: FrameHandle, variables: CompileRequest['variables'], sideEffects: boolean): Promise<CompileResult> {
    let result = this.compiled.get(key);
    if (!result) {
      const request: CompileRequest = { expression, sideEffects, pure: PURE_CALLS, variables, ...this.shapes.context(frame) };
      result = await askServer(
        'compile',
        [request],
        COMPILE_WAIT_MS,
        'the C# compiler (Roslyn, in the server\'s .NET worker) is still starting: its first compile in a server loads it and the framework\'s metadata',
      );
      keep(this.compiled, key, result);
    }
    if (result.sideEffect) throw sideEffectRefusal(result.sideEffect);
    if (!result.assembly) {
      const shown = result.diagnostics.map((d) => `${d.id} ${d.message}${d.column ? ` (column ${d.column})` : ''}`).join('; ');
      throw new DebugError('EVALUATION_FAILED', shown || 'the expression did not compile', 'Fix the expression: it is compiled as C# at this point of the source (the frame\'s variables, this, the file\'s usings).', {
        diagnostics: result.diagnostics,
      });
    }
    return result;
  }
}

/** Bounded: the oldest entry goes first. */
function keep<T>(map: Map<string, T>, key: string, value: T): void {
  if (map.size >= MAX_KEPT) map.delete(map.keys().next().value!);
  map.set(key, value);
}
