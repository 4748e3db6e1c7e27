/**
 * What a compiled expression depends on in a stopped frame: the method (its file's usings, its
 * type), and the variables in scope under their source names with the types they are declared with
 * (as the runtime types the variable, not the object in it: a local declared `IEnumerable<int>`
 * holding a List stays an `IEnumerable<int>`). Its key tells two frames apart that a compiled method
 * cannot serve both (another scope, another instantiation of a generic method).
 */
import { existsSync } from 'node:fs';
import { isAbsolute } from 'node:path';
import { KEYWORD_TYPES } from '../../expressions/clrType.js';
import { genericParameters } from '../../symbols/declarations.js';
import { Table, tokenRid } from '../../symbols/tableSchema.js';
import type { ModuleRegistry } from '../moduleRegistry.js';
import type { NativeType } from '../nativeEvents.js';
import type { Native } from '../nativeSession.js';
import type { FrameHandle } from '../stackReader.js';
import type { FrameLocals } from '../values/frameLocals.js';
import { KEYWORDS, type NativeValue } from '../values/nativeValue.js';
import { userTypeRid } from './frameNames.js';
import { missingThis } from './missingThis.js';
import type { CompileRequest, TypeInput } from '../../worker/evalProtocol.js';

const OBJECT: TypeInput = { kind: 'primitive', name: 'object' };

export interface FrameShape {
  key: string;
  /** The variables' values, read now (after any evaluation of this stop). */
  values: Map<string, NativeValue>;
  variables: CompileRequest['variables'];
}

export class FrameShapes {
  constructor(
    private readonly native: () => Native | undefined,
    private readonly modules: ModuleRegistry,
    private readonly locals: FrameLocals,
  ) {}

  async read(frame: FrameHandle): Promise<FrameShape> {
    const children = await this.locals.read(frame);
    const native = this.native();
    const declared = native && children.length ? (await native.call('declaredTypes', { hs: children.map((c) => c.value.h) })).types : [];
    // A box's exact type is its value's (int for `object o = 42`), which the compiled code would read the reference as: its variable is an object.
    const variables = children.map((child, i) => ({ name: child.name, type: child.value.boxed ? OBJECT : this.typeInput(declared[i] ?? child.value.type, child.tupleNames) }));
    const module = this.modules.get(frame.module);
    const key = `${module?.path ?? frame.module}|${frame.methodToken}|${frame.version ?? 1}|${JSON.stringify(frame.typeArgs ?? [])}|${JSON.stringify(variables)}`;
    return { key, values: new Map(children.map((c) => [c.name, c.value])), variables };
  }

  /** The rest of a compile request: what the file imports, the method's type and namespace, the loaded assemblies. */
  context(frame: FrameHandle): Omit<CompileRequest, 'expression' | 'sideEffects' | 'variables'> {
    const module = this.modules.get(frame.module);
    const symbols = module?.symbols;
    const references = this.modules
      .all()
      .map((m) => m.path)
      .filter((path) => isAbsolute(path) && existsSync(path));
    const imports = symbols?.importsOf(frame.methodToken);
    const base = {
      references,
      noThis: missingThis(this.modules, frame),
      namespace: '',
      imports: {
        namespaces: imports?.namespaces ?? [],
        staticTypes: imports?.staticTypes ?? [],
        aliases: [...(imports?.aliases ?? new Map()).entries()].map(([name, target]) => ({ name, ...target })),
      },
    };
    const method = symbols?.metadata.methodByToken(frame.methodToken);
    if (!module || !symbols || !method) return base;
    const meta = symbols.metadata;
    const rid = userTypeRid(meta, method.declaringType);
    let outer = rid;
    while (meta.type(outer).enclosing) outer = meta.type(outer).enclosing!;
    const typeParameters = this.typeParameterAliases(frame, method.declaringType);
    const withTypeParameters = { ...base.imports, aliases: [...base.imports.aliases, ...typeParameters] };
    return { ...base, imports: withTypeParameters, namespace: meta.type(outer).namespace, declaringType: { kind: 'named', assembly: module.path, name: meta.typeNameOf(Table.TypeDef, rid) } };
  }

  /**
   * The frame's type parameters (its class's, then its method's) as aliases of the types they stand
   * for in this instantiation: typeof(T), default(T), (T)x compile to what the frame runs with. A type
   * argument that is itself generic or an array goes as a type (`using T = List<int>;`, C# 12).
   */
  private typeParameterAliases(frame: FrameHandle, typeRid: number): { name: string; type?: string; input?: TypeInput }[] {
    const meta = this.modules.get(frame.module)?.symbols?.metadata;
    if (!meta || !frame.typeArgs?.length) return [];
    const names = [...genericParameters(meta, Table.TypeDef, typeRid), ...genericParameters(meta, Table.MethodDef, tokenRid(frame.methodToken))].map((p) => p.name);
    if (names.length !== frame.typeArgs.length) return [];
    return names.map((name, i) => {
      const type = this.definitionName(frame.typeArgs![i]!);
      return type ? { name, type } : { name, input: this.typeInput(frame.typeArgs![i]) };
    });
  }

  private definitionName(type: NativeType): string | undefined {
    const keyword = KEYWORDS[type.et];
    if (keyword && keyword !== 'void') return KEYWORD_TYPES[keyword];
    const meta = type.path ? this.modules.metadata(type.path) : undefined;
    return meta && type.token && !type.args?.length && (type.et === 0x11 || type.et === 0x12) ? meta.typeNameOf(Table.TypeDef, tokenRid(type.token)) : undefined;
  }

  /**
   * A type as the worker takes it, its tuples with their element names: `names` lists them as the
   * compiler does ([TupleElementNames], the PDB), each tuple's own before those of the tuples inside
   * it, in the order the type is written (`List<(string text, int length)>`: text, length).
   */
  private typeInput(type: NativeType | null | undefined, names?: (string | undefined)[], cursor = { at: 0 }): TypeInput {
    if (!type) return { kind: 'unknown' };
    const keyword = KEYWORDS[type.et];
    if (keyword && keyword !== 'void') return { kind: 'primitive', name: keyword };
    switch (type.et) {
      case 0x1d: // SZARRAY
      case 0x14: // ARRAY
        return { kind: 'array', elem: this.typeInput(type.elem, names, cursor), rank: type.rank ?? 1 };
      case 0x11: // VALUETYPE
      case 0x12: {
        // CLASS
        const meta = type.path ? this.modules.metadata(type.path) : undefined;
        if (!meta || !type.token || !type.path) return { kind: 'unknown' };
        const named: TypeInput = { kind: 'named', assembly: type.path, name: meta.typeNameOf(Table.TypeDef, tokenRid(type.token)) };
        const arity = type.args?.length ?? 0;
        const own = names && /^System\.ValueTuple`[1-7]$/.test(named.name) ? names.slice(cursor.at, (cursor.at += arity)) : undefined;
        if (arity) named.args = type.args!.map((a) => this.typeInput(a, names, cursor));
        if (own?.some((n) => n)) named.tupleNames = own.map((n) => n ?? null);
        return named;
      }
      default:
        return { kind: 'unknown' };
    }
  }
}
