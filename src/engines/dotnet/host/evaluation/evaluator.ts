/**
 * Evaluates a C# expression against a stopped frame: names are the frame's variables, then members
 * of `this` (or of the object a [DebuggerDisplay] describes), then static members of the method's
 * type, then types and namespaces. Operators follow C# (numeric promotion, string concatenation,
 * short-circuits, `??`, `?.`); members and calls reach into the program (members.ts).
 */
import { DebugError } from '../../../../core/errors.js';
import type { Expr, Pattern, TypeSyntax } from '../../expressions/ast.js';
import {
  convertExplicit,
  CSharpOperationError,
  evaluateBinary,
  liftedResultType,
  evaluateUnary,
  formatValue,
  SIZEOF,
  type CsType,
} from '../../expressions/numeric.js';
import { type ClrType, KEYWORD_TYPES, named, NULLABLE } from '../../expressions/clrType.js';
import { CSharpSyntaxError, parseExpression } from '../../expressions/parser.js';
import type { ModuleRegistry } from '../moduleRegistry.js';
import type { FrameHandle } from '../stackReader.js';
import type { FrameLocals } from '../values/frameLocals.js';
import { ElementType, type NativeValue } from '../values/nativeValue.js';
import type { ValueReader } from '../values/valueReader.js';
import { boolEval, type Bound, type BoundParam, fromNative, isNullValue, nullEval, stringEval, type EvalValue, type NameContext, type Place, type TypeRef } from './evalValue.js';
import type { Calls } from './calls.js';
import type { Casts } from './casts.js';
import { pad } from './formatSpecifiers.js';
import { clrTypeOf, declaringTypeOf, namesOf, predefinedType, staticImportsOf, typeSyntaxName } from './frameNames.js';
import type { Members } from './members.js';
import type { StaticTypes } from './staticTypes.js';
import type { TypeIndex } from './typeIndex.js';
import { createArray, createObject, type Creating } from './creation.js';
import { missingThis } from './missingThis.js';
import { enumOperationType, Operands } from './operands.js';
import { coalesce, readsOnly } from './coalesce.js';
import { unsupported } from './unsupported.js';

/** What names mean while one expression is evaluated. */
export interface Scope {
  frame: FrameHandle;
  /** The object whose [DebuggerDisplay] is evaluated: its members come first. */
  self?: NativeValue;
  /** `$exception`, `$returnValue` when there are some. */
  pseudo: Record<string, NativeValue | undefined>;
  /** False: refuse calls that may change the program (conditions, watches). */
  sideEffects?: boolean;
}

export class Evaluator {
  private readonly parsed = new Map<string, Expr>();

  constructor(
    private readonly modules: ModuleRegistry,
    private readonly locals: FrameLocals,
    private readonly reader: ValueReader,
    private readonly members: Members,
    private readonly types: TypeIndex,
    private readonly calls: Calls,
    private readonly staticTypes: StaticTypes,
    private readonly casts: Casts,
  ) {}

  async evaluate(text: string, scope: Scope): Promise<EvalValue> {
    try {
      return await new Run(this, scope).eval(this.parse(text));
    } catch (e) {
      // As the compiler or the runtime words it: `CS0030 Cannot convert…`, `System.InvalidCastException: Unable to cast…`.
      if (!(e instanceof CSharpOperationError)) throw e;
      if (e.kind === 'compile') throw new DebugError('EVALUATION_FAILED', `${e.code} ${e.message}`, 'The expression does not compile as C# here: fix it.');
      throw new DebugError('EVALUATION_FAILED', `${e.code}: ${e.message}`, 'C# throws this here too: check the values the expression uses.');
    }
  }

  /** Parsed once: a breakpoint condition is evaluated at every hit. */
  parse(text: string): Expr {
    let ast = this.parsed.get(text);
    if (!ast) {
      try {
        ast = parseExpression(text);
      } catch (e) {
        if (e instanceof CSharpSyntaxError && e.unsupported) throw unsupported(e.reason.replace(/ (is|are) not supported.*$/, '').replace(/:.*$/, ''), e.message, e.assigns);
        throw new DebugError('EVALUATION_FAILED', `${(e as Error).message}`, 'Write a C# expression: names, members, calls, operators, casts.');
      }
      if (this.parsed.size > 500) this.parsed.clear();
      this.parsed.set(text, ast);
    }
    return ast;
  }

  // The Run below reaches these through the evaluator.
  get parts() {
    return { modules: this.modules, locals: this.locals, reader: this.reader, members: this.members, types: this.types, calls: this.calls, staticTypes: this.staticTypes, casts: this.casts };
  }
}

/** One evaluation: the frame's variables are read once, on first use. */
class Run {
  private readonly variables = new Map<string, { value: NativeValue; declared?: ClrType; bound?: BoundParam; tupleNames?: (string | undefined)[] } | undefined>();
  private readonly place: Place;
  private bindings: EvalValue[] = [];
  private readonly operands: Operands;

  constructor(
    private readonly evaluator: Evaluator,
    private readonly scope: Scope,
  ) {
    const run = this;
    let names: NameContext | undefined;
    // Read on first use: a breakpoint condition over locals never needs the file's imports.
    this.place = {
      threadId: scope.frame.threadId,
      frameIndex: scope.frame.nativeIndex,
      sideEffects: scope.sideEffects,
      get names() {
        return (names ??= run.names());
      },
    };
    const { reader, members, modules } = evaluator.parts;
    this.operands = new Operands(reader, members, modules, this.place);
  }

  async eval(e: Expr): Promise<EvalValue> {
    switch (e.kind) {
      case 'literal':
        return { kind: 'value', value: e.value };
      case 'interpolatedString': {
        let text = '';
        for (const part of e.parts) text += part.kind === 'text' ? part.text : pad(await this.hole(await this.eval(part.expression), part.format), part.alignment);
        return stringEval(text);
      }
      case 'name':
        if (e.typeArguments.length) throw genericTypeName(e.name, e.typeArguments.length);
        return this.name(e.name);
      case 'pseudoVariable': {
        const value = this.scope.pseudo[e.name];
        if (!value) throw new DebugError('EVALUATION_FAILED', `${e.name} has no value here`, e.name === '$exception' ? 'It exists at an exception stop.' : 'It exists right after a step out of a method that returned a value.');
        return fromNative(value);
      }
      case 'this':
      case 'base':
        return this.self();
      case 'predefinedType':
        return { kind: 'type', type: predefinedType(this.evaluator.parts.types, e.name) };
      case 'memberAccess': {
        const target = await this.eval(e.target);
        if (e.typeArguments.length && target.kind !== 'object' && target.kind !== 'value') throw genericTypeName(e.name, e.typeArguments.length);
        return this.member(target, e.name);
      }
      case 'memberBinding':
        return this.member(this.binding(), e.name);
      case 'elementAccess':
        return this.element(await this.eval(e.target), e.arguments);
      case 'elementBinding':
        return this.element(this.binding(), e.arguments);
      case 'invocation':
        return this.invoke(e.target, e.arguments);
      case 'conditionalAccess': {
        const target = await this.eval(e.target);
        if (await this.operands.isNull(target)) return nullEval();
        this.bindings.push(target);
        try {
          return await this.eval(e.whenNotNull);
        } finally {
          this.bindings.pop();
        }
      }
      case 'unary': {
        const operand = await this.eval(e.operand);
        const cs = await this.operands.csValue(operand);
        const enumType = e.operator === '~' ? this.operands.enumTypeOf(operand) : undefined;
        const value = evaluateUnary(e.operator, cs);
        return enumType ? { kind: 'value', value: convertExplicit(value, cs.type), enumType } : { kind: 'value', value };
      }
      case 'binary':
        return this.binary(e.operator, e.left, e.right);
      case 'conditional':
        return (await this.operands.truth(await this.eval(e.condition))) ? this.eval(e.whenTrue) : this.eval(e.whenFalse);
      case 'cast':
        return this.cast(await this.eval(e.operand), e.type, true);
      case 'as':
        return this.cast(await this.eval(e.operand), e.type, false);
      case 'is':
        return boolEval(await this.matches(await this.eval(e.operand), e.pattern));
      case 'typeof':
        // A System.Type object (its FullName, its == with GetType(), an argument of type Type): the compiled evaluation makes it.
        throw unsupported('typeof', 'typeof(T) is a System.Type object');
      case 'default':
        return this.defaultOf(e.type);
      case 'sizeof': {
        const size = e.type.kind === 'predefinedType' ? SIZEOF[e.type.name as CsType] : undefined;
        if (size === undefined) throw new DebugError('EVALUATION_FAILED', `sizeof(${typeSyntaxName(e.type)}) is not a constant`);
        return { kind: 'value', value: { type: 'int', value: BigInt(size) } };
      }
      case 'nameof':
        return stringEval(e.name);
      case 'objectCreation':
        return createObject(this.creating, e.type, e.arguments, e.initializer);
      case 'arrayCreation':
        return createArray(this.creating, e.elementType, e.size, e.items);
    }
  }

  /** An interpolation hole's text; with a format (`{total:0.00}`), as the program's own string.Format writes it (every format, the program's culture). */
  private async hole(value: EvalValue, format: string | undefined): Promise<string> {
    if (!format || isNullValue(value)) return this.operands.toText(value);
    const string = predefinedType(this.evaluator.parts.types, 'string');
    return this.operands.toText(await this.evaluator.parts.members.call(string, 'Format', [stringEval(`{0:${format}}`), value], this.place));
  }

  /** What creating an object or an array needs of this evaluation. */
  private get creating(): Creating {
    return { calls: this.evaluator.parts.calls, members: this.evaluator.parts.members, operands: this.operands, place: this.place, eval: (e) => this.eval(e), clrType: (t) => this.clrType(t) };
  }

  private clrType(type: TypeSyntax): ClrType {
    return clrTypeOf(this.evaluator.parts.types, this.evaluator.parts.modules, this.place.names!, type);
  }

  private async name(name: string): Promise<EvalValue> {
    const variable = await this.variable(name);
    if (variable) {
      const { declared, bound, tupleNames } = this.variables.get(name)!;
      const value = fromNative(variable, declared, tupleNames);
      return bound && (value.kind === 'object' || value.kind === 'value') ? { ...value, bound } : value;
    }
    const self = this.scope.self ?? (await this.variable('this'));
    if (self && !self.null) {
      try {
        return await this.evaluator.parts.members.instance(self, name, this.place, this.selfDeclared());
      } catch (e) {
        if (!(e instanceof DebugError) || !/has no member/.test(e.message)) throw e;
      }
    }
    const declaring = this.declaringType();
    if (declaring) {
      try {
        return await this.evaluator.parts.members.static(declaring, name, this.place);
      } catch (e) {
        if (!(e instanceof DebugError) || !/has no static member/.test(e.message)) throw e;
      }
    }
    for (const owner of staticImportsOf(this.evaluator.parts.types, this.place.names)) {
      try {
        return await this.evaluator.parts.members.static(owner, name, this.place);
      } catch (e) {
        if (!(e instanceof DebugError) || !/has no static member/.test(e.message)) throw e;
      }
    }
    const type = this.evaluator.parts.types.find(name, 0, this.place.names!);
    if (type) return { kind: 'type', type };
    const aliased = this.evaluator.parts.types.aliasedNamespace(name, this.place.names!);
    if (aliased) return { kind: 'namespace', name: aliased };
    if (this.evaluator.parts.types.isNamespace(name)) return { kind: 'namespace', name };
    // `T.Parse(text)` of a static abstract member: the compiled evaluation binds T to the frame's type argument.
    if (this.place.names?.typeParameters?.includes(name)) throw unsupported('type parameter', `${name} is a type parameter of the frame`);
    throw new DebugError('EVALUATION_FAILED', `The name '${name}' does not exist in the current context`, 'Names here: the frame\'s variables (inspect_variables), members of this, and types.');
  }

  private async member(target: EvalValue, name: string): Promise<EvalValue> {
    const { members, types } = this.evaluator.parts;
    switch (target.kind) {
      case 'object':
        return this.byBound(target, (declared) => members.instance(target.value, name, this.place, declared));
      case 'type':
        return members.static(target.type, name, this.place);
      case 'namespace': {
        const full = `${target.name}.${name}`;
        const type = types.find(full, 0, '');
        if (type) return { kind: 'type', type };
        if (types.isNamespace(full)) return { kind: 'namespace', name: full };
        throw new DebugError('EVALUATION_FAILED', `'${full}' is neither a type nor a namespace of the loaded modules`);
      }
      case 'value':
        if (target.value.type === 'string' && name === 'Length') return { kind: 'value', value: { type: 'int', value: BigInt(target.value.value.length) } };
        if (target.origin) return this.byBound(target, (declared) => members.instance(target.origin!, name, this.place, declared));
        throw new DebugError('EVALUATION_FAILED', `a ${target.value.type} constant has no member '${name}' here`);
      case 'void':
        throw new DebugError('EVALUATION_FAILED', 'the method returns nothing');
    }
  }

  /**
   * A member of a value typed by a bare type parameter is its constraints' (an interface's explicit
   * implementation), the class constraint's first; one they lack, the type argument's (where C# would refuse).
   */
  private async byBound(target: EvalValue & Bound, lookup: (declared: ClrType | undefined) => Promise<EvalValue>): Promise<EvalValue> {
    const declared = target.kind === 'object' || target.kind === 'value' ? target.declared : undefined;
    for (const constraint of target.bound?.constraints ?? []) {
      try {
        return await lookup(constraint);
      } catch (e) {
        if (!(e instanceof DebugError) || !/has no (member|method)/.test(e.message)) throw e;
      }
    }
    return lookup(declared);
  }

  private async element(target: EvalValue, args: Expr[]): Promise<EvalValue> {
    const indices = await Promise.all(args.map((a) => this.eval(a)));
    const text = target.kind === 'value' && target.value.type === 'string' ? target.value.value : isString(target) && target.kind === 'object' && !target.value.null ? (target.value.str ?? '') : undefined;
    if (text !== undefined) {
      const i = Number((await this.operands.csValue(indices[0]!)).value);
      if (!(i >= 0 && i < text.length)) throw new DebugError('EVALUATION_FAILED', `index ${i} is outside the string (length ${text.length})`);
      return { kind: 'value', value: { type: 'char', value: BigInt(text.charCodeAt(i)) } };
    }
    if (target.kind !== 'object') throw new DebugError('EVALUATION_FAILED', 'only arrays, strings and objects with an indexer can be indexed');
    return this.evaluator.parts.members.element(target.value, indices, this.place, target.declared);
  }

  private async invoke(target: Expr, args: Expr[]): Promise<EvalValue> {
    const values: EvalValue[] = [];
    for (const arg of args) values.push(await this.eval(arg));
    let receiver: EvalValue;
    let name: string;
    const explicit = target.kind === 'name' || target.kind === 'memberAccess' || target.kind === 'memberBinding' ? target.typeArguments : [];
    const typeArgs = explicit.length ? explicit.map((t) => this.clrType(t)) : undefined;
    if (target.kind === 'memberAccess') {
      receiver = await this.eval(target.target);
      name = target.name;
    } else if (target.kind === 'memberBinding') {
      receiver = this.binding();
      name = target.name;
    } else if (target.kind === 'name') {
      const self = this.scope.self ?? (await this.variable('this'));
      const declaring = this.declaringType();
      receiver = self && !self.null ? { kind: 'object', value: self } : declaring ? { kind: 'type', type: declaring } : { kind: 'void' };
      name = target.name;
    } else {
      throw new DebugError('EVALUATION_FAILED', 'only methods can be called');
    }
    if (name === 'ToString' && values.length === 0 && receiver.kind === 'value' && !receiver.enumType) return stringEval(formatValue(receiver.value));
    const { members } = this.evaluator.parts;
    if (target.kind === 'name') return this.invokeSimple(receiver, name, values, typeArgs);
    if (receiver.kind === 'object') return this.byBound(receiver, (declared) => members.call(receiver.value, name, values, this.place, typeArgs, declared));
    if (receiver.kind === 'type') return members.call(receiver.type, name, values, this.place, typeArgs);
    if (receiver.kind === 'value' && receiver.origin) return this.byBound(receiver, (declared) => members.call(receiver.origin!, name, values, this.place, typeArgs, declared));
    if (receiver.kind === 'value' && receiver.value.type === 'string') {
      return members.call(await members.materialize(receiver.value.value, this.place), name, values, this.place, typeArgs);
    }
    // A computed number or enum (`(a + b).ToString("N2")`, `(perm | Perm.Admin).HasFlag(…)`) is boxed by the compiled evaluation.
    throw unsupported('call on a computed value', `${name}() on a computed value`);
  }

  /** `F(args)`: a method of this or of the method's type, else of a `using static` type. */
  private async invokeSimple(receiver: EvalValue, name: string, values: EvalValue[], typeArgs: ClrType[] | undefined): Promise<EvalValue> {
    // `f(x)` of a delegate variable (a Func argument, a lambda local): the compiled evaluation invokes it.
    if (await this.variable(name)) throw unsupported('delegate invocation', `${name}(…) invokes a delegate`);
    const { members } = this.evaluator.parts;
    const owners: (NativeValue | TypeRef)[] = receiver.kind === 'object' ? [receiver.value] : [];
    const declaring = this.declaringType();
    if (declaring) owners.push(declaring);
    owners.push(...staticImportsOf(this.evaluator.parts.types, this.place.names));
    let first: unknown;
    for (const owner of owners) {
      try {
        return await members.call(owner, name, values, this.place, typeArgs, 'h' in owner ? this.selfDeclared() : undefined);
      } catch (e) {
        if (!(e instanceof DebugError) || !/has no (static )?method/.test(e.message)) throw e;
        first ??= e;
      }
    }
    const local = declaring && (await members.localFunction(declaring, receiver.kind === 'object' ? receiver.value : undefined, name, values, this.place));
    if (local) return local;
    throw first ?? new DebugError('EVALUATION_FAILED', `The name '${name}' does not exist in the current context`);
  }

  private async binary(op: string, leftExpr: Expr, rightExpr: Expr): Promise<EvalValue> {
    const left = await this.eval(leftExpr);
    if (op === '&&' || op === '||') {
      const l = await this.operands.truth(left);
      if (op === '&&' ? !l : l) return boolEval(l);
      return boolEval(await this.operands.truth(await this.eval(rightExpr)));
    }
    if (op === '??') return coalesce(this.operands, left, nullableArgument(left), () => this.eval(rightExpr), readsOnly(rightExpr));
    const right = await this.eval(rightExpr);
    if ((op === '==' || op === '!=') && (isNullValue(left) || isNullValue(right))) {
      const same = (await this.operands.isNull(left)) && (await this.operands.isNull(right));
      return boolEval(op === '==' ? same : !same);
    }
    if ((op === '==' || op === '!=') && (left.kind === 'object' || right.kind === 'object')) {
      // A type's own == (records, and classes that define one) decides before references are compared.
      const defined = await this.operands.userEquality(op, left, right);
      if (defined) return defined;
      const same = await this.operands.referenceEquals(left, right);
      if (same !== undefined) return boolEval(op === '==' ? same : !same);
    }
    if (op === '+' && (isString(left) || isString(right))) {
      return stringEval((await this.operands.toText(left)) + (await this.operands.toText(right)));
    }
    const [l, r] = [await this.operands.csValue(left), await this.operands.csValue(right)];
    const value = evaluateBinary(op as never, l, r);
    const [leftNullable, rightNullable] = [this.operands.nullableUnderlying(left, l), this.operands.nullableUnderlying(right, r)];
    if (leftNullable || rightNullable) {
      const lifted = liftedResultType(op as never, l, r, leftNullable ?? l.type, rightNullable ?? r.type);
      if (lifted) return { kind: 'value', value, declared: named(NULLABLE, [named(KEYWORD_TYPES[lifted]!)]) };
    }
    const [leftEnum, rightEnum] = [this.operands.enumTypeOf(left), this.operands.enumTypeOf(right)];
    const enumType = enumOperationType(op, leftEnum, rightEnum);
    // The underlying type's arithmetic, narrowed back: a byte-backed enum's `a | b` is computed as int.
    return enumType ? { kind: 'value', value: convertExplicit(value, (leftEnum ? l : r).type), enumType } : { kind: 'value', value };
  }

  private async cast(v: EvalValue, type: TypeSyntax, throwing: boolean): Promise<EvalValue> {
    return this.evaluator.parts.casts.cast(v, this.clrType(type), throwing, this.place, this.operands);
  }

  private async matches(v: EvalValue, pattern: Pattern): Promise<boolean> {
    switch (pattern.kind) {
      case 'notPattern':
        return !(await this.matches(v, pattern.pattern));
      case 'constantPattern': {
        const constant = await this.eval(pattern.value);
        if (isNullValue(constant)) return isNullValue(v);
        if (isNullValue(v)) return false;
        const result = evaluateBinary('==', await this.operands.csValue(v), await this.operands.csValue(constant));
        return result.value === true;
      }
      case 'typePattern':
        return !isNullValue(v) && (await this.isOfType(v, pattern.type));
    }
  }

  private async isOfType(v: EvalValue, type: TypeSyntax): Promise<boolean> {
    const wanted = typeSyntaxName(type).replace(/\?$/, '');
    if (v.kind === 'value') return v.value.type === wanted || (wanted === 'object' && v.value.type !== 'null');
    if (v.kind !== 'object') return false;
    if (wanted === 'object') return true;
    if (v.value.et === ElementType.string) return wanted === 'string' || wanted === 'System.String';
    const catalog = this.evaluator.parts.reader.catalog;
    const named = (v.value.chain ?? []).some((t) => {
      const name = catalog.name(t);
      return name === wanted || name.endsWith(`.${wanted}`) || name.replace(/<.*>$/, '') === wanted;
    });
    if (named) return true;
    try {
      return this.evaluator.parts.calls.isInstance(v.value, this.clrType(type));
    } catch {
      return false; // a type not loaded in the program: no object is one
    }
  }

  private defaultOf(type: TypeSyntax | undefined): EvalValue {
    if (type?.kind === 'predefinedType' && type.name !== 'string' && type.name !== 'object') {
      return { kind: 'value', value: convertExplicit({ type: 'int', value: 0n }, type.name as CsType) };
    }
    if (!type || type.kind === 'nullableType' || type.kind === 'predefinedType') return nullEval();
    // A struct's or enum's default is a zeroed value of its type (not its parameterless constructor's): the compiled evaluation makes it.
    throw unsupported('default of a named type', `default(${typeSyntaxName(type)}) may be a struct`);
  }

  private async self(): Promise<EvalValue> {
    const self = this.scope.self ?? (await this.variable('this'));
    if (!self) throw new DebugError('EVALUATION_FAILED', missingThis(this.evaluator.parts.modules, this.scope.frame));
    return fromNative(self, this.selfDeclared());
  }

  /** `this` of the frame is typed by the method's class; an object a [DebuggerDisplay] describes, by its own. */
  private selfDeclared(): ClrType | undefined {
    return this.scope.self ? undefined : this.variables.get('this')?.declared;
  }

  private binding(): EvalValue {
    const value = this.bindings.at(-1);
    if (!value) throw new DebugError('EVALUATION_FAILED', 'a member binding outside ?.');
    return value;
  }

  /** A variable of the frame, read once per evaluation (none when evaluating for [DebuggerDisplay]). */
  private async variable(name: string): Promise<NativeValue | undefined> {
    if (this.scope.self) return undefined;
    if (!this.variables.has(name)) {
      const found = await this.evaluator.parts.locals.lookup(this.scope.frame, name);
      this.variables.set(name, found && { value: found.value, tupleNames: found.tupleNames, ...this.evaluator.parts.staticTypes.ofVariable(this.scope.frame, found.home, found.value) });
    }
    return this.variables.get(name)?.value;
  }

  private declaringType(): TypeRef | undefined {
    return declaringTypeOf(this.evaluator.parts.modules, this.scope.frame);
  }

  /** The names the frame's source file sees: its namespace, its `using` directives and aliases. */
  names(): NameContext {
    return namesOf(this.evaluator.parts.modules, this.scope.frame);
  }
}

/** `Comparer<decimal>.Default`: a constructed generic type named in an expression (not a `new`, a cast or a call's type arguments), which the compiled evaluation runs. */
function genericTypeName(name: string, arity: number): DebugError {
  return unsupported('generic type names', `'${name}<${','.repeat(arity - 1)}>' names a constructed generic type`);
}

const isString = (v: EvalValue) => (v.kind === 'value' && v.value.type === 'string') || (v.kind === 'object' && v.value.et === ElementType.string);

/** T of a value declared T? (an `int?` local, a cast to one). */
function nullableArgument(v: EvalValue): ClrType | undefined {
  const declared = v.kind === 'object' || v.kind === 'value' ? v.declared : undefined;
  return declared?.kind === 'named' && declared.name === NULLABLE ? declared.args[0] : undefined;
}
