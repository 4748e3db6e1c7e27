/**
 * Values of the stopped program for the engine API: scopes of a frame, children by handle (paged),
 * evaluation and assignment. Handles and frames stay valid until the program runs on.
 */
import { DebugError } from '../../../core/errors.js';
import type { EvaluateResult, ScopeInfo, VariableInfo } from '../../../core/types.js';
import type { ModuleRegistry } from './moduleRegistry.js';
import type { NativeType } from './nativeEvents.js';
import type { FilterOp, Native } from './nativeSession.js';
import type { FrameHandle, StackReader } from './stackReader.js';
import { formatValue, type CsValue } from '../expressions/numeric.js';
import { displayType, NULLABLE } from '../expressions/clrType.js';
import { Calls } from './evaluation/calls.js';
import { Casts } from './evaluation/casts.js';
import { ClrTypes } from './evaluation/clrTypes.js';
import { Evaluator } from './evaluation/evaluator.js';
import { AssemblyLoader } from './evaluation/assemblyLoader.js';
import { CompiledEvaluation } from './evaluation/compiledEvaluation.js';
import { FrameShapes } from './evaluation/frameShape.js';
import { sideEffectRefusal } from './evaluation/sideEffects.js';
import { assignedBy, refusedByInterpreter } from './evaluation/unsupported.js';
import { observeCondition, type ConditionReads } from './filterObservation.js';
import { compileHitFilter, fitsFilter } from './hitFilter.js';
import type { EvalValue } from './evaluation/evalValue.js';
import { Members } from './evaluation/members.js';
import { TypeIndex } from './evaluation/typeIndex.js';
import { Assignment } from './values/assignment.js';
import { ChildLister } from './values/childLister.js';
import { isTuple, itemElementNames, type TypeNamer, withElementNames } from './values/tupleNames.js';
import { DeclaredTypes } from './values/declaredTypes.js';
import { StaticTypes } from './evaluation/staticTypes.js';
import { FrameLocals } from './values/frameLocals.js';
import { formatChar, formatEnum, quoteString } from './values/formatValue.js';
import { FuncEval } from './values/funcEval.js';
import { ElementType, type NativeValue } from './values/nativeValue.js';
import { TypeCatalog } from './values/typeCatalog.js';
import { TypeProxies } from './values/typeProxy.js';
import { ValueReader, type Child, type ChildSource, type ReadContext } from './values/valueReader.js';

type Container = { kind: 'locals'; frame: FrameHandle } | { kind: 'children'; source: ChildSource; context: ReadContext };

interface Entry {
  container: Container;
  /** Children listed from it so far, by name, for set value. */
  listed: Map<string, Child>;
  /** A frame's variables, read once per stop. */
  locals?: Child[];
  /** The container and name it was listed under: a struct's fields are read again through it after a set. */
  parent?: { entry: Entry; name: string };
}

export class Inspection {
  readonly catalog: TypeCatalog;
  readonly funcEval: FuncEval;
  readonly reader: ValueReader;
  private readonly lister: ChildLister;
  private readonly locals: FrameLocals;
  private readonly evaluator: Evaluator;
  private readonly assignment: Assignment;
  private readonly compiled: CompiledEvaluation;
  /** Loads compiled expressions into the program (it learns of their modules as they load). */
  readonly assemblies: AssemblyLoader;
  /** Expressions the evaluator refused: they go straight to the compiled evaluation. */
  private readonly refused = new Set<string>();
  private readonly entries = new Map<number, Entry>();
  /** `$exception` at an exception stop: the thread it was thrown on. */
  exceptionThread?: number;
  /** `$returnValue` after a step out: the call it returned from. */
  returnSite?: { threadId: number; ilOffset: number };
  private nextRef = 1;

  constructor(
    private readonly native: () => Native | undefined,
    modules: ModuleRegistry,
    private readonly stack: StackReader,
  ) {
    this.catalog = new TypeCatalog(modules);
    this.funcEval = new FuncEval(native, this.catalog);
    this.reader = new ValueReader(native, this.catalog, this.funcEval);
    const types = new TypeIndex(modules);
    this.lister = new ChildLister(native, this.reader, new TypeProxies(this.catalog, this.funcEval, types), this.funcEval);
    this.locals = new FrameLocals(native, modules, this.reader);
    const clrTypes = new ClrTypes(modules);
    const staticTypes = new StaticTypes(modules, this.catalog, clrTypes);
    const calls = new Calls(native, this.catalog, this.funcEval, clrTypes, staticTypes);
    const members = new Members(native, this.catalog, this.reader, this.funcEval, types, calls, staticTypes);
    this.evaluator = new Evaluator(modules, this.locals, this.reader, members, types, calls, staticTypes, new Casts(clrTypes, calls));
    this.assemblies = new AssemblyLoader(members, types);
    this.compiled = new CompiledEvaluation(new FrameShapes(native, modules, this.locals), this.assemblies, this.funcEval);
    this.assignment = new Assignment(native, this.catalog, this.funcEval, new DeclaredTypes(modules, this.catalog), (expression, frame) => this.evaluateIn(expression, frame, true));
  }

  /** A C# expression in a frame of the stopped program (`sideEffects`: false refuses what may change the program). */
  async evaluate(expression: string, frameId: number, sideEffects = true): Promise<EvaluateResult> {
    await this.funcEval.awaitUnfinished();
    const frame = this.frame(frameId);
    return this.answer(await this.evaluateIn(expression, frame, sideEffects), frame);
  }

  /**
   * The hand-written evaluator first (milliseconds); what it refuses as valid C# it does not run is
   * compiled by Roslyn and run in the program, with the same answer.
   */
  private async evaluateIn(expression: string, frame: FrameHandle, sideEffects: boolean): Promise<EvalValue> {
    if (!this.refused.has(expression)) {
      try {
        return await this.evaluator.evaluate(expression, { frame, pseudo: await this.pseudoVariables(frame), sideEffects });
      } catch (e) {
        if (!refusedByInterpreter(e)) throw e;
        // An assignment of a variable or member is refused here, as Roslyn would (an element's needs its types).
        const assigns = assignedBy(e);
        if (!sideEffects && assigns) throw sideEffectRefusal(`it assigns ${assigns}`);
        if (this.refused.size > 500) this.refused.clear();
        this.refused.add(expression);
      }
    }
    return this.compiled.evaluate(expression, frame, sideEffects);
  }

  /** Checks an expression's syntax (throws EVALUATION_FAILED). */
  parse(expression: string): void {
    this.evaluator.parse(expression);
  }

  /** The same, answering the value itself (conditions, logpoints: no side effects unless told). */
  async evaluateValue(expression: string, frame: FrameHandle, sideEffects = false): Promise<{ value: EvalValue; text: string }> {
    const value = await this.evaluateIn(expression, frame, sideEffects);
    return { value, text: (await this.answer(value, frame)).value };
  }

  /**
   * Conditions compiled for the debugger thread (hitFilter.ts) from what they read in this frame,
   * joined by `||`; undefined when one does not fit, or reads a value whose type cannot be known from
   * it yet (a null string).
   */
  async compileConditions(conditions: string[], frame: FrameHandle): Promise<FilterOp[] | undefined> {
    const native = this.native();
    if (!native) return undefined;
    const reads: ConditionReads = {
      locate: (name) => this.locals.locate(frame, name),
      captured: (name) => this.locals.capturedPath(frame, name),
      variable: async (place) => (await native.call('variable', { threadId: frame.threadId, frameIndex: frame.nativeIndex, ...place })).value,
      field: async (object, name) => {
        const field = this.reader.fieldRef(object, name);
        const [value] = field ? await this.reader.fieldsByName(object, [name]) : [];
        return field && value ? { field, value } : undefined;
      },
    };
    const compiled: FilterOp[][] = [];
    for (const condition of conditions) {
      const parsed = this.evaluator.parse(condition);
      const seen = fitsFilter(parsed) ? await observeCondition(parsed, reads) : undefined;
      const ops = seen && compileHitFilter(seen.expr, seen.observed);
      if (!ops) return undefined;
      compiled.push(ops);
    }
    return compiled.flatMap((ops, i) => (i === 0 ? ops : [...ops, { op: 'or' as const }]));
  }

  private async pseudoVariables(frame: FrameHandle): Promise<Record<string, NativeValue | undefined>> {
    const native = this.native();
    const pseudo: Record<string, NativeValue | undefined> = {};
    if (native && this.exceptionThread === frame.threadId) {
      pseudo.$exception = (await native.call('currentException', { threadId: frame.threadId }).catch(() => undefined))?.value;
    }
    const site = this.returnSite;
    if (native && site?.threadId === frame.threadId && frame.nativeIndex === 0) {
      pseudo.$returnValue = (await native.call('returnValue', { threadId: frame.threadId, frameIndex: 0, ilOffset: site.ilOffset }).catch(() => undefined))?.value;
    }
    return pseudo;
  }

  private async answer(value: EvalValue, frame: FrameHandle): Promise<EvaluateResult> {
    const answer = await this.valueAnswer(value, frame);
    // A value declared nullable (`(long?)rounds`, an `int?` call) is shown by that type, as C# declares it.
    const declared = value.kind === 'object' || value.kind === 'value' ? value.declared : undefined;
    if (declared?.kind !== 'named' || declared.name !== NULLABLE || !declared.args[0] || answer.type?.endsWith('?')) return answer;
    return { ...answer, type: `${answer.type === 'null' || !answer.type ? displayType(declared.args[0]) : answer.type}?` };
  }

  private async valueAnswer(value: EvalValue, frame: FrameHandle): Promise<EvaluateResult> {
    switch (value.kind) {
      case 'object':
        return this.result(value.value, frame, value.tupleNames);
      case 'value':
        return { value: this.constantText(value.value, value.enumType), type: value.enumType ? this.catalog.name(value.enumType) : value.value.type, ref: 0 };
      case 'type':
        return { value: `{${value.type.name}}`, type: 'type', ref: 0 };
      case 'namespace':
        return { value: `{namespace ${value.name}}`, type: 'namespace', ref: 0 };
      case 'void':
        return { value: 'the expression has no value (a void call)', type: 'void', ref: 0 };
    }
  }

  private constantText(value: CsValue, enumType?: NativeType): string {
    if (enumType) {
      const info = this.catalog.enumInfo(enumType);
      if (info && typeof value.value === 'bigint') return formatEnum(value.value, info.constants, info.flags);
    }
    switch (value.type) {
      case 'string':
        return quoteString(value.value);
      case 'char':
        return formatChar(Number(value.value));
      case 'bool':
        return String(value.value);
      case 'null':
        return 'null';
      default:
        return formatValue(value);
    }
  }

  /** The program ran on: every handle is gone. */
  clear(): void {
    this.entries.clear();
  }

  async scopes(frameId: number): Promise<ScopeInfo[]> {
    await this.funcEval.awaitUnfinished();
    const frame = this.frame(frameId);
    const ref = this.store({ kind: 'locals', frame });
    const locals = await this.localsOf(this.entries.get(ref)!, frame);
    return [{ name: 'Locals', ref, expensive: false, namedVariables: locals.length }];
  }

  /** `start` and `count` may arrive as null over the IPC channel. */
  async variables(ref: number, start?: number | null, count?: number | null): Promise<VariableInfo[]> {
    await this.funcEval.awaitUnfinished();
    const entry = this.entries.get(ref);
    if (!entry) throw new DebugError('VARIABLE_NOT_FOUND', `No value has handle ${ref} (handles end when the program runs).`, 'List the variables again with inspect_variables.');
    const { container } = entry;
    const from = start ?? 0;
    const take = count ?? 100;
    let children: Child[];
    let context: ReadContext;
    if (container.kind === 'locals') {
      context = { ...this.context(container.frame), toStrings: new Map() };
      children = (await this.localsOf(entry, container.frame)).slice(from, from + take);
    } else {
      context = container.context;
      children = (await this.lister.page(container.source, from, take, context)).children;
    }
    const infos: VariableInfo[] = [];
    for (const child of children) {
      entry.listed.set(child.name, child);
      infos.push(await this.info(child.name, child.value, context, childSource(child), { entry, name: child.name }));
    }
    return infos;
  }

  /** Assigns a C# expression's value (a literal, another variable, a call) to a listed child. */
  async setVariable(containerRef: number, name: string, text: string): Promise<EvaluateResult> {
    await this.funcEval.awaitUnfinished();
    const entry = this.entries.get(containerRef);
    const child = entry?.listed.get(name);
    if (child?.computed) throw new DebugError('INVALID_ARGUMENT', `${name} is computed for the debugger (a getter's result, or a [DebuggerTypeProxy]'s copy): setting it would not change the program.`, 'Set the variable or field it comes from ([Raw View] lists the object\'s own fields).');
    if (!entry || !child?.home) throw new DebugError('VARIABLE_NOT_FOUND', `${name} cannot be assigned here.`, 'List the variables with inspect_variables first.');
    const { container } = entry;
    const context = container.kind === 'locals' ? this.context(container.frame) : container.context;
    const frame = container.kind === 'locals' ? container.frame : context.frame;
    if (!frame) throw new DebugError('INVALID_STATE', `${name} was read outside a frame of the stop.`, 'List the variables again with inspect_variables.');
    const source = container.kind === 'children' ? container.source : undefined;
    // A collection expression (`[7, 8]`) has no type of its own: C# types it by the variable it is assigned to.
    if (container.kind === 'locals' && text.trim().startsWith('[')) await this.evaluateIn(`${name} = ${text.trim()}`, frame, true);
    else await this.assignment.assign(
      {
        home: child.home,
        current: child.value,
        frame,
        owner: source?.kind === 'object' ? source.value : undefined,
        element: source?.kind === 'array' ? source.value.type?.elem : source?.kind === 'list' ? source.array.type?.elem : undefined,
      },
      text.trim(),
    );
    const fresh = await this.reread(entry, name);
    return this.info(name, fresh ?? child.value, context, childSource({ ...child, value: fresh ?? child.value })).then((v) => ({ value: v.value, type: v.type, ref: v.ref, indexedVariables: v.indexedVariables }));
  }

  /** A value (from an evaluation) as an evaluate answer, with a handle for its children (a tuple's under its element names). */
  async result(value: NativeValue, frame: FrameHandle, tupleNames?: (string | undefined)[]): Promise<EvaluateResult> {
    const info = await this.info('', value, this.context(frame), tupleNames && { kind: 'object', value, tupleNames });
    return { value: info.value, type: info.type, ref: info.ref, indexedVariables: info.indexedVariables };
  }

  frame(frameId: number): FrameHandle {
    const frame = this.stack.handle(frameId);
    if (!frame) throw new DebugError('INVALID_ARGUMENT', `Frame ${frameId} is not a frame of your code (or the program ran on).`, 'Call inspect_stack again and pick a frame with a source line.');
    return frame;
  }

  context(frame: FrameHandle): ReadContext {
    return {
      threadId: frame.threadId,
      frameIndex: frame.nativeIndex,
      frame,
      displayHole: async (expression, self, noQuotes) => {
        const value = await this.evaluator.evaluate(expression, { frame, self, pseudo: {} });
        if (noQuotes && value.kind === 'value' && value.value.type === 'string') return value.value.value;
        if (noQuotes && value.kind === 'object' && value.value.et === ElementType.string && value.value.str !== undefined) return value.value.str;
        return value.kind === 'object' ? (await this.reader.describe(value.value, { threadId: frame.threadId, frameIndex: frame.nativeIndex }, true)).value : value.kind === 'value' ? this.constantText(value.value, value.enumType) : '?';
      },
    };
  }

  private async info(name: string, value: NativeValue, context: ReadContext, source?: ChildSource, parent?: Entry['parent']): Promise<VariableInfo> {
    const described = await this.reader.describe(value, context);
    const names = source?.kind === 'object' && !source.raw ? source.tupleNames : undefined;
    const type = value.chain?.[0] ?? value.type;
    const nameOf: TypeNamer = (t, arg) => this.catalog.name(t, arg);
    // A tuple lists its elements by name; a collection of tuples its items, which carry their names.
    const children = names && !isTuple(type, nameOf) ? described.children && withItemNames(described.children, itemElementNames(type, names, nameOf)) : (source ?? described.children);
    const ref = children ? this.store({ kind: 'children', source: children, context }, parent) : 0;
    return { name, value: described.value, type: withElementNames(type, names, nameOf) ?? described.type, ref, indexedVariables: described.count };
  }

  private store(container: Container, parent?: Entry['parent']): number {
    const ref = this.nextRef++;
    this.entries.set(ref, { container, listed: new Map(), ...(parent && { parent }) });
    return ref;
  }

  private async localsOf(entry: Entry, frame: FrameHandle): Promise<Child[]> {
    entry.locals ??= await this.locals.read(frame);
    return entry.locals;
  }

  private async reread(entry: Entry, name: string): Promise<NativeValue | undefined> {
    entry.locals = undefined;
    const { container, parent } = entry;
    // A struct's fields were listed from a copy of it, which the set did not change: read the struct again.
    if (container.kind === 'children' && container.source.kind === 'object' && container.source.value.et === ElementType.valuetype && !container.source.value.boxed && parent) {
      const struct = await this.reread(parent.entry, parent.name);
      if (struct) entry.container = { ...container, source: { ...container.source, value: struct } };
    }
    const children =
      entry.container.kind === 'locals'
        ? await this.localsOf(entry, entry.container.frame)
        : (await this.lister.page(entry.container.source, 0, 10_000, entry.container.context)).children;
    const child = children.find((c) => c.name === name);
    if (child) entry.listed.set(name, child);
    return child?.value;
  }
}

/** A collection's items with the element names of their tuples (a proxied one's come as its view lists them). */
function withItemNames(children: ChildSource, tupleNames: (string | undefined)[] | undefined): ChildSource {
  return tupleNames && children.kind !== 'object' ? { ...children, tupleNames } : children;
}

/** A child's children, when they are not its value's own: a proxied object's raw view, a tuple's under its element names. */
function childSource(child: Child): ChildSource | undefined {
  return child.source ?? (child.tupleNames ? { kind: 'object', value: child.value, tupleNames: child.tupleNames } : undefined);
}
