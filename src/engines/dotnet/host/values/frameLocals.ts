/**
 * A frame's variables under their source names: `this`, the arguments (metadata parameter names),
 * the locals in scope at the frame's IL offset (PDB slot names). What the compiler moved into
 * classes shows under its source name too: an async method's or iterator's hoisted locals
 * (`<total>5__2` → `total`), a lambda's captured variables (display-class fields, `CS$<>8__locals`
 * flattened) and the outer `this` (`<>4__this`), and the parameters of the class's primary constructor
 * that its members use (`<title>P` → `title`, shadowed by a local or argument). A logical frame of an awaiting async method has no
 * native frame: its variables are all hoisted, read from its state machine.
 */
import { parameterNames, parameterTupleNames, type TupleNames } from '../../symbols/typeMembers.js';
import { Table, token, tokenRid } from '../../symbols/tableSchema.js';
import type { ModuleRegistry } from '../moduleRegistry.js';
import type { Native } from '../nativeSession.js';
import type { FrameHandle } from '../stackReader.js';
import { userTypeRid } from '../evaluation/frameNames.js';
import { ElementType, type NativeValue } from './nativeValue.js';
import type { Child, ValueReader } from './valueReader.js';

const METHOD_STATIC = 0x10;
const HOISTED = /^<([^>]+)>5__(\d+)$/;
/** A closure's display class: a local of the method (`CS$<>8__locals1`), or hoisted into its state machine (`<>8__1`). */
const CLOSURE_LOCALS = /^(CS\$<>8__locals\d*|<>8__\d+)$/;
const OUTER_THIS = '<>4__this';
/** An async method's or iterator's state machine (`<Name>d__N`, a generic method's `<Name>d__N`1`), an async lambda's (`<<Main>$>b__0_0>d`). */
const STATE_MACHINE = /^<.+>d(__\d+)?(`\d+)?$/;
/** A primary constructor's parameter that members use, captured by the compiler into a field (C# 12). */
const PRIMARY_PARAMETER = /^<([^>]+)>P$/;

type Place = { kind: 'local' | 'argument'; index: number };

export class FrameLocals {
  constructor(
    private readonly native: () => Native | undefined,
    private readonly modules: ModuleRegistry,
    private readonly reader: ValueReader,
  ) {}

  /**
   * One variable by name, read alone when it is a plain argument or local (a condition reads one or
   * two at every hit); undefined when the frame has no such name.
   */
  async find(frame: FrameHandle, name: string): Promise<NativeValue | undefined> {
    return (await this.lookup(frame, name))?.value;
  }

  /** As find(), with where the variable lives (its declaration's type is the one C# sees). */
  async lookup(frame: FrameHandle, name: string): Promise<Child | undefined> {
    if (frame.stateMachine) return (await this.read(frame)).find((c) => c.name === name);
    const native = this.native();
    const place = this.locate(frame, name);
    if (!native || !place) return undefined;
    if (place !== 'captured') {
      const { value } = await native.call('variable', { threadId: frame.threadId, frameIndex: frame.nativeIndex, ...place });
      const tupleNames = place.kind === 'local' ? this.inScope(frame).find((v) => v.slot === place.index && v.name === name)?.tupleNames : this.argumentTupleNames(frame, place.index);
      return value && { name, value, home: { ...place, threadId: frame.threadId, frameIndex: frame.nativeIndex }, ...(tupleNames && { tupleNames }) };
    }
    return (await this.read(frame)).find((c) => c.name === name);
  }

  /**
   * Where a name lives in the frame: a plain local or argument slot, `captured` when it can only be
   * a hoisted or captured variable (a field of a compiler class), undefined when the frame has none.
   */
  locate(frame: FrameHandle, name: string): Place | 'captured' | undefined {
    const symbols = this.modules.get(frame.module)?.symbols;
    if (!symbols || frame.stateMachine) return undefined;
    const method = symbols.metadata.method(tokenRid(frame.methodToken));
    const isStatic = (method.flags & METHOD_STATIC) !== 0;
    const typeName = symbols.metadata.type(method.declaringType).name;
    const compilerThis = !isStatic && (typeName.startsWith('<>c') || STATE_MACHINE.test(typeName));
    const variables = this.inScope(frame);
    const closures = variables.some((v) => CLOSURE_LOCALS.test(v.name));
    const local = variables.filter((v) => v.name === name && !v.hidden).pop();
    const position = parameterNames(symbols.metadata, method.rid).indexOf(name);
    if (local) return { kind: 'local', index: local.slot };
    if (position >= 0) return { kind: 'argument', index: isStatic ? position : position + 1 };
    if (name === 'this' && !isStatic && !compilerThis) return { kind: 'argument', index: 0 };
    return compilerThis || closures || (!isStatic && !!this.primaryFields(frame)?.names.has(`<${name}>P`)) ? 'captured' : undefined;
  }

  async read(frame: FrameHandle): Promise<Child[]> {
    return this.withPrimaryParameters(frame, await this.readDeclared(frame));
  }

  private async readDeclared(frame: FrameHandle): Promise<Child[]> {
    if (frame.stateMachine) return dedupe(await this.flatten(frame.stateMachine, 0, [], this.hoistedInScope(frame)));
    const native = this.native();
    const symbols = this.modules.get(frame.module)?.symbols;
    if (!native || !symbols) return [];
    const { arguments: args, locals } = await native.call('frameValues', { threadId: frame.threadId, frameIndex: frame.nativeIndex });
    const method = symbols.metadata.method(tokenRid(frame.methodToken));
    const isStatic = (method.flags & METHOD_STATIC) !== 0;
    const names = parameterNames(symbols.metadata, method.rid);
    const out: Child[] = [];
    const home = (kind: 'local' | 'argument', index: number) => ({ kind, threadId: frame.threadId, frameIndex: frame.nativeIndex, index });

    if (!isStatic && args[0]) {
      if (this.isCompilerClass(args[0])) out.push(...(await this.flatten(args[0], 0, [], this.hoistedInScope(frame))));
      else out.push({ name: 'this', value: args[0], home: home('argument', 0) });
    }
    args.forEach((value, index) => {
      const position = isStatic ? index : index - 1;
      if (value && position >= 0) out.push({ name: names[position] ?? `arg${position}`, value, home: home('argument', index), ...withNames(parameterTupleNames(symbols.metadata, method.rid, position + 1)) });
    });
    for (const variable of this.inScope(frame)) {
      const value = locals[variable.slot];
      if (!value || variable.hidden) continue;
      if (CLOSURE_LOCALS.test(variable.name)) out.push(...(await this.flatten(value, 0)));
      else out.push({ name: variable.name, value, home: home('local', variable.slot), tupleNames: variable.tupleNames });
    }
    return dedupe(out);
  }

  /**
   * Where a hoisted or captured variable lives, for a hit filter to read it as the evaluator does: the
   * frame's slot holding the compiler's object (`this` of a state machine or lambda, or a closure
   * local), then the fields leading to it (`<i>5__2`; `CS$<>8__locals1`, `paid`; `<>4__this`). The
   * innermost declaration wins, as in read().
   */
  async capturedPath(frame: FrameHandle, name: string): Promise<{ place: Place; fields: string[] } | undefined> {
    const native = this.native();
    const symbols = this.modules.get(frame.module)?.symbols;
    if (!native || !symbols) return undefined;
    const method = symbols.metadata.method(tokenRid(frame.methodToken));
    const roots: Place[] = [];
    if ((method.flags & METHOD_STATIC) === 0) roots.push({ kind: 'argument', index: 0 });
    for (const variable of this.inScope(frame)) if (CLOSURE_LOCALS.test(variable.name)) roots.push({ kind: 'local', index: variable.slot });
    let found: { place: Place; fields: string[] } | undefined;
    for (const place of roots) {
      const { value } = await native.call('variable', { threadId: frame.threadId, frameIndex: frame.nativeIndex, ...place });
      if (place.kind === 'argument' && !this.isCompilerClass(value)) continue;
      const match = (await this.flatten(value, 0, [], place.kind === 'argument' ? this.hoistedInScope(frame) : undefined)).filter((c) => c.name === name).pop();
      if (match) found = { place, fields: match.path };
    }
    return found;
  }

  /**
   * A closure or state machine object: its captured / hoisted variables under their source names, with
   * the fields leading to each; `inScope`: which hoisted slots the frame's own state machine has in scope
   * where it stopped (a loop's variable is not one after the loop, as in Visual Studio).
   */
  private async flatten(value: NativeValue, depth: number, path: string[] = [], inScope?: (slot: number) => boolean): Promise<(Child & { path: string[] })[]> {
    if (value.null || depth > 4) return [];
    const fields: { name: string; module: number; type: number; field: number; tupleNames?: TupleNames }[] = [];
    for (const type of value.chain ?? []) {
      const view = this.reader.catalog.view(type);
      for (const f of view?.fields ?? []) if (!f.isStatic) fields.push({ name: f.name, module: view!.module, type: view!.token, field: f.token, tupleNames: f.tupleNames });
    }
    const native = this.native();
    if (!native || fields.length === 0) return [];
    const { values } = await native.call('fields', { h: value.h, fields: fields.map(({ module, type, field }) => ({ module, type, field })) });
    const out: (Child & { path: string[] })[] = [];
    for (const [i, f] of fields.entries()) {
      const read = values[i];
      if (!read || !('h' in read)) continue;
      const home = { kind: 'field' as const, h: value.h, module: f.module, type: f.type, field: f.field };
      const at = [...path, f.name];
      // An async lambda's state machine holds its closure (captured variables, the real `this`) as its `this`.
      if (f.name === OUTER_THIS && this.isCompilerClass(read)) out.push(...(await this.flatten(read, depth + 1, at)));
      else if (f.name === OUTER_THIS) out.unshift({ name: 'this', value: read, home, path: at });
      else if (CLOSURE_LOCALS.test(f.name)) out.push(...(await this.flatten(read, depth + 1, at)));
      else if (HOISTED.test(f.name)) {
        const [, name, slot] = HOISTED.exec(f.name)!;
        if (!inScope || inScope(Number(slot) - 1)) out.push({ name: name!, value: read, home, path: at, ...withNames(f.tupleNames) });
      }
      else if (!f.name.startsWith('<')) out.push({ name: f.name, value: read, home, path: at, ...withNames(f.tupleNames) });
    }
    return out;
  }

  /** Whether a hoisted slot of the frame's state machine is in scope at its IL offset (the PDB's hoisted scopes; none recorded: all are). */
  private hoistedInScope(frame: FrameHandle): (slot: number) => boolean {
    const scopes = this.modules.get(frame.module)?.symbols?.hoistedLocalScopes(frame.methodToken) ?? [];
    return (slot) => {
      const scope = scopes[slot];
      return !scope || (scope.startOffset === 0 && scope.endOffset === 0) || (scope.startOffset <= frame.ilOffset && frame.ilOffset < scope.endOffset);
    };
  }

  /** An argument's tuple element names, from its parameter's [TupleElementNames] (`index` counts `this`). */
  private argumentTupleNames(frame: FrameHandle, index: number): TupleNames | undefined {
    const meta = this.modules.get(frame.module)?.symbols?.metadata;
    const method = meta?.methodByToken(frame.methodToken);
    if (!meta || !method) return undefined;
    const position = (method.flags & METHOD_STATIC) !== 0 ? index : index - 1;
    return position >= 0 ? parameterTupleNames(meta, method.rid, position + 1) : undefined;
  }

  /** The class's captured primary-constructor parameters, after `this` and before the frame's own variables (which shadow them). */
  private async withPrimaryParameters(frame: FrameHandle, children: Child[]): Promise<Child[]> {
    const fields = this.primaryFields(frame);
    if (!fields) return children;
    const self = children.find((c) => c.name === 'this');
    const owner = self?.value.chain?.find((t) => t.module === frame.module && this.reader.catalog.view(t)?.token === fields.typeToken);
    if (!self || self.value.null || !owner) return children;
    const view = this.reader.catalog.view(owner)!;
    const wanted = view.fields.filter((f) => fields.names.has(f.name));
    const native = this.native();
    if (!native) return children;
    const { values } = await native.call('fields', { h: self.value.h, fields: wanted.map((f) => ({ module: view.module, type: view.token, field: f.token })) });
    const primary: Child[] = [];
    wanted.forEach((f, i) => {
      const value = values[i];
      if (value && 'h' in value) primary.push({ name: PRIMARY_PARAMETER.exec(f.name)![1]!, value, home: { kind: 'field', h: self.value.h, module: view.module, type: view.token, field: f.token }, ...withNames(f.tupleNames) });
    });
    return dedupe([self, ...primary, ...children]);
  }

  /** The `<name>P` fields of the class whose code the frame runs (a lambda's or state machine's: the class around it). */
  private primaryFields(frame: FrameHandle): { typeToken: number; names: Set<string> } | undefined {
    const meta = this.modules.get(frame.module)?.symbols?.metadata;
    const method = meta?.methodByToken(frame.methodToken);
    if (!meta || !method) return undefined;
    const rid = userTypeRid(meta, method.declaringType);
    const names = new Set((this.reader.catalog.view({ et: ElementType.class, module: frame.module, token: token(Table.TypeDef, rid) })?.fields ?? []).filter((f) => !f.isStatic && PRIMARY_PARAMETER.test(f.name)).map((f) => f.name));
    return names.size ? { typeToken: token(Table.TypeDef, rid), names } : undefined;
  }

  private inScope(frame: FrameHandle) {
    const symbols = this.modules.get(frame.module)?.symbols;
    return (symbols?.localScopes(frame.methodToken, frame.version) ?? []).filter((s) => s.startOffset <= frame.ilOffset && frame.ilOffset < s.endOffset).flatMap((s) => s.variables);
  }

  /** Display classes (`<>c__DisplayClass…`) and state machines the compiler made. */
  private isCompilerClass(value: NativeValue): boolean {
    const view = this.reader.catalog.view(value.chain?.[0]);
    const name = view?.fullName.split(/[+.]/).pop() ?? '';
    return name.startsWith('<>c__DisplayClass') || STATE_MACHINE.test(name) || name === '<>c';
  }
}

function withNames(tupleNames: TupleNames | undefined): { tupleNames?: TupleNames } {
  return tupleNames ? { tupleNames } : {};
}

/** The innermost declaration of a name wins (a local shadows a captured variable of the same name). */
function dedupe(children: Child[]): Child[] {
  const byName = new Map<string, Child>();
  for (const child of children) byName.set(child.name, child);
  return [...byName.values()];
}
