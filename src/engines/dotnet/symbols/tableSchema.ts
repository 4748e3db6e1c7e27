/**
 * The shape of every metadata table: ECMA-335 II.22 (type system, 0x00-0x2C) and the Portable PDB
 * tables (0x30-0x37). Column sizes depend on heap sizes and row counts, so they are computed when a
 * table stream is opened (metadataTables.ts).
 */

export enum Table {
  Module = 0x00,
  TypeRef = 0x01,
  TypeDef = 0x02,
  FieldPtr = 0x03,
  Field = 0x04,
  MethodPtr = 0x05,
  MethodDef = 0x06,
  ParamPtr = 0x07,
  Param = 0x08,
  InterfaceImpl = 0x09,
  MemberRef = 0x0a,
  Constant = 0x0b,
  CustomAttribute = 0x0c,
  FieldMarshal = 0x0d,
  DeclSecurity = 0x0e,
  ClassLayout = 0x0f,
  FieldLayout = 0x10,
  StandAloneSig = 0x11,
  EventMap = 0x12,
  EventPtr = 0x13,
  Event = 0x14,
  PropertyMap = 0x15,
  PropertyPtr = 0x16,
  Property = 0x17,
  MethodSemantics = 0x18,
  MethodImpl = 0x19,
  ModuleRef = 0x1a,
  TypeSpec = 0x1b,
  ImplMap = 0x1c,
  FieldRva = 0x1d,
  EncLog = 0x1e,
  EncMap = 0x1f,
  Assembly = 0x20,
  AssemblyProcessor = 0x21,
  AssemblyOs = 0x22,
  AssemblyRef = 0x23,
  AssemblyRefProcessor = 0x24,
  AssemblyRefOs = 0x25,
  File = 0x26,
  ExportedType = 0x27,
  ManifestResource = 0x28,
  NestedClass = 0x29,
  GenericParam = 0x2a,
  MethodSpec = 0x2b,
  GenericParamConstraint = 0x2c,
  Document = 0x30,
  MethodDebugInformation = 0x31,
  LocalScope = 0x32,
  LocalVariable = 0x33,
  LocalConstant = 0x34,
  ImportScope = 0x35,
  StateMachineMethod = 0x36,
  CustomDebugInformation = 0x37,
}

/** A coded index: a few tag bits pick the table, the rest is the row (II.24.2.6). */
export interface CodedIndex {
  tagBits: number;
  /** Tables by tag; -1 for tags no table uses. */
  tables: number[];
}

const HAS_CUSTOM_ATTRIBUTE_TABLES = [
  Table.MethodDef, Table.Field, Table.TypeRef, Table.TypeDef, Table.Param, Table.InterfaceImpl, Table.MemberRef, Table.Module,
  Table.DeclSecurity, Table.Property, Table.Event, Table.StandAloneSig, Table.ModuleRef, Table.TypeSpec, Table.Assembly,
  Table.AssemblyRef, Table.File, Table.ExportedType, Table.ManifestResource, Table.GenericParam, Table.GenericParamConstraint,
  Table.MethodSpec,
];

export const Coded = {
  TypeDefOrRef: { tagBits: 2, tables: [Table.TypeDef, Table.TypeRef, Table.TypeSpec] },
  HasConstant: { tagBits: 2, tables: [Table.Field, Table.Param, Table.Property] },
  HasCustomAttribute: { tagBits: 5, tables: HAS_CUSTOM_ATTRIBUTE_TABLES },
  HasFieldMarshal: { tagBits: 1, tables: [Table.Field, Table.Param] },
  HasDeclSecurity: { tagBits: 2, tables: [Table.TypeDef, Table.MethodDef, Table.Assembly] },
  MemberRefParent: { tagBits: 3, tables: [Table.TypeDef, Table.TypeRef, Table.ModuleRef, Table.MethodDef, Table.TypeSpec] },
  HasSemantics: { tagBits: 1, tables: [Table.Event, Table.Property] },
  MethodDefOrRef: { tagBits: 1, tables: [Table.MethodDef, Table.MemberRef] },
  MemberForwarded: { tagBits: 1, tables: [Table.Field, Table.MethodDef] },
  Implementation: { tagBits: 2, tables: [Table.File, Table.AssemblyRef, Table.ExportedType] },
  CustomAttributeType: { tagBits: 3, tables: [-1, -1, Table.MethodDef, Table.MemberRef, -1] },
  ResolutionScope: { tagBits: 2, tables: [Table.Module, Table.ModuleRef, Table.AssemblyRef, Table.TypeRef] },
  TypeOrMethodDef: { tagBits: 1, tables: [Table.TypeDef, Table.MethodDef] },
  HasCustomDebugInformation: {
    tagBits: 5,
    tables: [...HAS_CUSTOM_ATTRIBUTE_TABLES, Table.Document, Table.LocalScope, Table.LocalVariable, Table.LocalConstant, Table.ImportScope],
  },
} satisfies Record<string, CodedIndex>;

/** A column: fixed width, a heap index, a row index into a table, or a coded index. */
export type ColumnType = 1 | 2 | 4 | 'string' | 'guid' | 'blob' | { table: Table } | { coded: CodedIndex };

export type TableColumns = Record<string, ColumnType>;

const str = 'string' as const;
const guid = 'guid' as const;
const blob = 'blob' as const;
const t = (table: Table) => ({ table });
const c = (coded: CodedIndex) => ({ coded });

/** Columns in their on-disk order (object key order is insertion order). */
export const TABLE_COLUMNS: Partial<Record<Table, TableColumns>> = {
  [Table.Module]: { generation: 2, name: str, mvid: guid, encId: guid, encBaseId: guid },
  [Table.TypeRef]: { scope: c(Coded.ResolutionScope), name: str, namespace: str },
  [Table.TypeDef]: { flags: 4, name: str, namespace: str, extends: c(Coded.TypeDefOrRef), fieldList: t(Table.Field), methodList: t(Table.MethodDef) },
  [Table.FieldPtr]: { field: t(Table.Field) },
  [Table.Field]: { flags: 2, name: str, signature: blob },
  [Table.MethodPtr]: { method: t(Table.MethodDef) },
  [Table.MethodDef]: { rva: 4, implFlags: 2, flags: 2, name: str, signature: blob, paramList: t(Table.Param) },
  [Table.ParamPtr]: { param: t(Table.Param) },
  [Table.Param]: { flags: 2, sequence: 2, name: str },
  [Table.InterfaceImpl]: { type: t(Table.TypeDef), interface: c(Coded.TypeDefOrRef) },
  [Table.MemberRef]: { parent: c(Coded.MemberRefParent), name: str, signature: blob },
  [Table.Constant]: { type: 2, parent: c(Coded.HasConstant), value: blob },
  [Table.CustomAttribute]: { parent: c(Coded.HasCustomAttribute), type: c(Coded.CustomAttributeType), value: blob },
  [Table.FieldMarshal]: { parent: c(Coded.HasFieldMarshal), nativeType: blob },
  [Table.DeclSecurity]: { action: 2, parent: c(Coded.HasDeclSecurity), permissionSet: blob },
  [Table.ClassLayout]: { packingSize: 2, classSize: 4, parent: t(Table.TypeDef) },
  [Table.FieldLayout]: { offset: 4, field: t(Table.Field) },
  [Table.StandAloneSig]: { signature: blob },
  [Table.EventMap]: { parent: t(Table.TypeDef), eventList: t(Table.Event) },
  [Table.EventPtr]: { event: t(Table.Event) },
  [Table.Event]: { flags: 2, name: str, type: c(Coded.TypeDefOrRef) },
  [Table.PropertyMap]: { parent: t(Table.TypeDef), propertyList: t(Table.Property) },
  [Table.PropertyPtr]: { property: t(Table.Property) },
  [Table.Property]: { flags: 2, name: str, type: blob },
  [Table.MethodSemantics]: { semantics: 2, method: t(Table.MethodDef), association: c(Coded.HasSemantics) },
  [Table.MethodImpl]: { type: t(Table.TypeDef), body: c(Coded.MethodDefOrRef), declaration: c(Coded.MethodDefOrRef) },
  [Table.ModuleRef]: { name: str },
  [Table.TypeSpec]: { signature: blob },
  [Table.ImplMap]: { flags: 2, member: c(Coded.MemberForwarded), importName: str, importScope: t(Table.ModuleRef) },
  [Table.FieldRva]: { rva: 4, field: t(Table.Field) },
  [Table.EncLog]: { token: 4, funcCode: 4 },
  [Table.EncMap]: { token: 4 },
  [Table.Assembly]: { hashAlgId: 4, major: 2, minor: 2, build: 2, revision: 2, flags: 4, publicKey: blob, name: str, culture: str },
  [Table.AssemblyProcessor]: { processor: 4 },
  [Table.AssemblyOs]: { platform: 4, major: 4, minor: 4 },
  [Table.AssemblyRef]: { major: 2, minor: 2, build: 2, revision: 2, flags: 4, publicKey: blob, name: str, culture: str, hash: blob },
  [Table.AssemblyRefProcessor]: { processor: 4, assemblyRef: t(Table.AssemblyRef) },
  [Table.AssemblyRefOs]: { platform: 4, major: 4, minor: 4, assemblyRef: t(Table.AssemblyRef) },
  [Table.File]: { flags: 4, name: str, hash: blob },
  [Table.ExportedType]: { flags: 4, typeDefId: 4, name: str, namespace: str, implementation: c(Coded.Implementation) },
  [Table.ManifestResource]: { offset: 4, flags: 4, name: str, implementation: c(Coded.Implementation) },
  [Table.NestedClass]: { nested: t(Table.TypeDef), enclosing: t(Table.TypeDef) },
  [Table.GenericParam]: { number: 2, flags: 2, owner: c(Coded.TypeOrMethodDef), name: str },
  [Table.MethodSpec]: { method: c(Coded.MethodDefOrRef), instantiation: blob },
  [Table.GenericParamConstraint]: { owner: t(Table.GenericParam), constraint: c(Coded.TypeDefOrRef) },
  [Table.Document]: { name: blob, hashAlgorithm: guid, hash: blob, language: guid },
  [Table.MethodDebugInformation]: { document: t(Table.Document), sequencePoints: blob },
  [Table.LocalScope]: {
    method: t(Table.MethodDef),
    importScope: t(Table.ImportScope),
    variableList: t(Table.LocalVariable),
    constantList: t(Table.LocalConstant),
    startOffset: 4,
    length: 4,
  },
  [Table.LocalVariable]: { attributes: 2, index: 2, name: str },
  [Table.LocalConstant]: { name: str, signature: blob },
  [Table.ImportScope]: { parent: t(Table.ImportScope), imports: blob },
  [Table.StateMachineMethod]: { moveNext: t(Table.MethodDef), kickoff: t(Table.MethodDef) },
  [Table.CustomDebugInformation]: { parent: c(Coded.HasCustomDebugInformation), kind: guid, value: blob },
};

/** A metadata token: table in the top byte, row id below. */
export const token = (table: Table, rid: number): number => ((table << 24) | rid) >>> 0;
export const tokenTable = (tok: number): number => tok >>> 24;
export const tokenRid = (tok: number): number => tok & 0x00ffffff;
