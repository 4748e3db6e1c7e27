/**
 * The names a frame's code sees, as both evaluators resolve them: the type the user wrote whose
 * method the frame runs (a lambda or a state machine runs in a compiler class nested in it), its
 * namespace and the source file's imports; the types `using static` brings and C#'s keyword types;
 * and a type written in an expression: as the program knows it, and as C# spells it.
 */
import { DebugError } from '../../../../core/errors.js';
import type { TypeSyntax } from '../../expressions/ast.js';
import { type ClrType, KEYWORD_TYPES, named, NULLABLE } from '../../expressions/clrType.js';
import { typeFullName, type AssemblyMetadata } from '../../symbols/assemblyMetadata.js';
import { genericParameters } from '../../symbols/declarations.js';
import { Table, token, tokenRid } from '../../symbols/tableSchema.js';
import type { ModuleRegistry } from '../moduleRegistry.js';
import type { FrameHandle } from '../stackReader.js';
import type { NameContext, TypeRef } from './evalValue.js';
import type { TypeIndex } from './typeIndex.js';
import { unsupported } from './unsupported.js';

const PREDEFINED_CLR: Record<string, string> = {
  bool: 'Boolean', byte: 'Byte', sbyte: 'SByte', short: 'Int16', ushort: 'UInt16', int: 'Int32', uint: 'UInt32', long: 'Int64',
  ulong: 'UInt64', char: 'Char', float: 'Single', double: 'Double', decimal: 'Decimal', string: 'String', object: 'Object', nint: 'IntPtr', nuint: 'UIntPtr',
};

/** The type the user wrote that holds a type: out of the compiler classes (`<>c`, `<RunAsync>d__4`) nested in it. */
export function userTypeRid(meta: AssemblyMetadata, typeRid: number): number {
  let rid = typeRid;
  while (meta.type(rid).name.startsWith('<') && meta.type(rid).enclosing) rid = meta.type(rid).enclosing!;
  return rid;
}

/** The type whose method the frame runs (its static members are in scope). */
export function declaringTypeOf(modules: ModuleRegistry, frame: FrameHandle): TypeRef | undefined {
  const symbols = modules.get(frame.module)?.symbols;
  const method = symbols?.metadata.methodByToken(frame.methodToken);
  if (!symbols || !method) return undefined;
  const rid = userTypeRid(symbols.metadata, method.declaringType);
  return { module: frame.module, token: token(Table.TypeDef, rid), path: modules.get(frame.module)?.path, name: symbols.typeName(rid), args: [] };
}

/** The names the frame's source file sees: its namespace, its `using` directives and aliases. */
export function namesOf(modules: ModuleRegistry, frame: FrameHandle): NameContext {
  const declaring = declaringTypeOf(modules, frame);
  const meta = declaring && modules.metadata(declaring.module);
  const symbols = modules.get(frame.module)?.symbols;
  const method = symbols?.metadata.methodByToken(frame.methodToken);
  const typeParameters = method
    ? [...genericParameters(symbols!.metadata, Table.TypeDef, method.declaringType), ...genericParameters(symbols!.metadata, Table.MethodDef, method.rid)].map((p) => p.name)
    : [];
  return { namespace: meta ? meta.type(tokenRid(declaring!.token)).namespace : '', imports: symbols?.importsOf(frame.methodToken), typeParameters };
}

/** The types of the file's `using static` directives. */
export function staticImportsOf(types: TypeIndex, names: NameContext | undefined): TypeRef[] {
  return (names?.imports?.staticTypes ?? []).flatMap((n) => {
    const type = types.find(n.replace(/`\d+/g, '').replace(/\+/g, '.'), 0, '');
    return type ? [type] : [];
  });
}

/** A C# keyword type (`int`, `string`) as the framework's type. */
export function predefinedType(types: TypeIndex, name: string): TypeRef {
  const type = types.find(`System.${PREDEFINED_CLR[name] ?? name}`, 0, '');
  if (!type) throw new DebugError('EVALUATION_FAILED', `the type ${name} is not loaded`);
  return type;
}

/** A type as the program knows it, named as the source file sees it. */
export function clrTypeOf(types: TypeIndex, modules: ModuleRegistry, names: NameContext, type: TypeSyntax): ClrType {
  switch (type.kind) {
    case 'predefinedType': {
      const name = KEYWORD_TYPES[type.name];
      if (!name) throw new DebugError('EVALUATION_FAILED', `'${type.name}' is not a type that can be used here`);
      return named(name);
    }
    case 'arrayType':
      return { kind: 'array', elem: clrTypeOf(types, modules, names, type.elementType), rank: type.rank };
    case 'nullableType':
      return named(NULLABLE, [clrTypeOf(types, modules, names, type.underlyingType)]);
    case 'namedType': {
      if (type.segments.slice(0, -1).some((s) => s.typeArguments.length)) throw unsupported('nested types of generic types', 'a type nested in a generic type cannot be named here');
      const last = type.segments.at(-1)!;
      // `List<T>`, `T[]` in a generic frame: the compiled evaluation binds T to the frame's type argument.
      if (type.segments.length === 1 && !last.typeArguments.length && names.typeParameters?.includes(last.name)) throw unsupported('type parameter', `${last.name} is a type parameter of the frame`);
      const ref = types.find(type.segments.map((s) => s.name).join('.'), last.typeArguments.length, names);
      const meta = ref && modules.metadata(ref.module);
      if (!ref || !meta) throw new DebugError('EVALUATION_FAILED', `The type or namespace name '${typeSyntaxName(type)}' could not be found in the program's loaded modules`);
      return named(typeFullName(meta, 0x02, tokenRid(ref.token)), last.typeArguments.map((t) => clrTypeOf(types, modules, names, t)));
    }
  }
}

/** A type as the expression wrote it (`List<int>[]`, `int?`). */
export function typeSyntaxName(type: TypeSyntax): string {
  switch (type.kind) {
    case 'predefinedType':
      return type.name;
    case 'namedType':
      return type.segments.map((s) => (s.typeArguments.length ? `${s.name}<${s.typeArguments.map(typeSyntaxName).join(', ')}>` : s.name)).join('.');
    case 'arrayType':
      return `${typeSyntaxName(type.elementType)}[${','.repeat(type.rank - 1)}]`;
    case 'nullableType':
      return `${typeSyntaxName(type.underlyingType)}?`;
  }
}
