/**
 * What a variable may hold, for set value: the type a local, argument, field or array element is
 * declared with, and whether an object of the program fits it — its class, a base class or an
 * interface it implements, as C#'s implicit reference conversions allow. A variable of type `Shape`
 * takes a `Circle`; an `Invoice` variable refuses a `string`.
 */
import type { AssemblyMetadata } from '../../symbols/assemblyMetadata.js';
import { implementedInterfaces, localVariableTypes, methodSignature } from '../../symbols/declarations.js';
import type { TypeSig } from '../../symbols/signatures.js';
import { tokenRid, tokenTable } from '../../symbols/tableSchema.js';
import type { ModuleRegistry } from '../moduleRegistry.js';
import type { NativeType } from '../nativeEvents.js';
import type { SetTarget } from '../nativeSession.js';
import type { FrameHandle } from '../stackReader.js';
import { ElementType, type NativeValue } from './nativeValue.js';
import type { TypeCatalog } from './typeCatalog.js';

/** A type as matching needs it: its metadata name and type arguments; `*` is a type parameter not resolved. */
export type Shape = { name: string; args: Shape[] } | '*';

const ARRAY = '[]';
const CLR_NAMES: Record<number, string> = {
  0x02: 'System.Boolean',
  0x03: 'System.Char',
  0x04: 'System.SByte',
  0x05: 'System.Byte',
  0x06: 'System.Int16',
  0x07: 'System.UInt16',
  0x08: 'System.Int32',
  0x09: 'System.UInt32',
  0x0a: 'System.Int64',
  0x0b: 'System.UInt64',
  0x0c: 'System.Single',
  0x0d: 'System.Double',
  0x0e: 'System.String',
  0x18: 'System.IntPtr',
  0x19: 'System.UIntPtr',
  0x1c: 'System.Object',
};
const TYPED_REFERENCE = 0x16;

export class DeclaredTypes {
  constructor(
    private readonly modules: ModuleRegistry,
    private readonly catalog: TypeCatalog,
  ) {}

  /**
   * The declared type of where a value lives: a local's or argument's signature in the frame's
   * method, a field's signature (its declaring type's arguments from the object), an array's element
   * type; undefined when it cannot be read.
   */
  of(home: SetTarget, frame: FrameHandle | undefined, owner?: NativeValue, element?: NativeType): Shape | undefined {
    switch (home.kind) {
      case 'local':
      case 'argument': {
        const meta = frame && this.modules.get(frame.module)?.symbols?.metadata;
        if (!meta || !frame) return undefined;
        const rid = tokenRid(frame.methodToken);
        if (home.kind === 'local') {
          const sig = localVariableTypes(meta, rid)[home.index];
          return sig && this.sigShape(meta, sig);
        }
        const signature = methodSignature(meta, rid);
        const position = signature.hasThis ? home.index - 1 : home.index;
        const sig = signature.params[position];
        return sig && this.sigShape(meta, sig);
      }
      case 'field':
      case 'static': {
        const view = this.catalog.view({ et: ElementType.class, module: home.module, token: home.type });
        const field = view?.fields.find((f) => f.token === home.field);
        if (!view || !field) return undefined;
        const declaring = owner?.chain?.find((t) => t.module === home.module && t.token === home.type);
        return this.sigShape(view.meta, field.type, declaring?.args?.map((t) => this.shapeOf(t)));
      }
      case 'element':
        return element && this.shapeOf(element);
    }
  }

  shapeOf(type: NativeType): Shape {
    const clr = CLR_NAMES[type.et];
    if (clr) return { name: clr, args: [] };
    if ((type.et === ElementType.szarray || type.et === ElementType.array) && type.elem) return { name: arrayName(type.rank, type.et), args: [this.shapeOf(type.elem)] };
    const name = this.catalog.view(type)?.fullName;
    return name ? { name, args: (type.args ?? []).map((t) => this.shapeOf(t)) } : '*';
  }

  /** Whether an object (or null) can be stored where `declared` is the type. */
  accepts(declared: Shape, value: NativeValue): boolean {
    if (value.null || declared === '*') return true;
    if (declared.name === 'System.Object') return true;
    if (value.et === ElementType.string) return declared.name === 'System.String';
    if (value.et === ElementType.szarray || value.et === ElementType.array) return !!value.type && same(declared, this.shapeOf(value.type));
    return (value.chain ?? []).some((type) => {
      const own = this.shapeOf(type);
      return same(declared, own) || this.interfacesOf(type).some((i) => same(declared, i));
    });
  }

  /** C#'s spelling, for messages. */
  text(shape: Shape): string {
    if (shape === '*') return 'T';
    if (shape.name === ARRAY || shape.name.startsWith('[')) return `${this.text(shape.args[0]!)}${shape.name}`;
    const keyword = Object.entries(CLR_NAMES).find(([, n]) => n === shape.name);
    if (keyword) return this.modules.typeName({ et: Number(keyword[0]) });
    const bare = shape.name.replace(/`\d+/g, '').replace(/\+/g, '.');
    if (bare === 'System.Nullable' && shape.args.length === 1) return `${this.text(shape.args[0]!)}?`;
    return shape.args.length ? `${bare}<${shape.args.map((a) => this.text(a)).join(', ')}>` : bare;
  }

  private interfacesOf(type: NativeType): Shape[] {
    const view = this.catalog.view(type);
    if (!view) return [];
    const typeArgs = (type.args ?? []).map((t) => this.shapeOf(t));
    return implementedInterfaces(view.meta, tokenRid(view.token)).map((sig) => this.sigShape(view.meta, sig, typeArgs));
  }

  private sigShape(meta: AssemblyMetadata, sig: TypeSig, typeArgs?: Shape[], methodArgs?: Shape[]): Shape {
    switch (sig.kind) {
      case 'primitive':
        return CLR_NAMES[sig.et] && sig.et !== TYPED_REFERENCE ? { name: CLR_NAMES[sig.et]!, args: [] } : '*';
      case 'class':
      case 'valuetype':
        return { name: meta.typeNameOf(tokenTable(sig.token), tokenRid(sig.token)), args: [] };
      case 'generic': {
        const base = this.sigShape(meta, sig.base, typeArgs, methodArgs);
        return base === '*' ? '*' : { name: base.name, args: sig.args.map((a) => this.sigShape(meta, a, typeArgs, methodArgs)) };
      }
      case 'szarray':
        return { name: ARRAY, args: [this.sigShape(meta, sig.elem, typeArgs, methodArgs)] };
      case 'array':
        return { name: arrayName(sig.rank, ElementType.array), args: [this.sigShape(meta, sig.elem, typeArgs, methodArgs)] };
      case 'var':
        return typeArgs?.[sig.index] ?? '*';
      case 'mvar':
        return methodArgs?.[sig.index] ?? '*';
      default:
        return '*';
    }
  }
}

function arrayName(rank: number | undefined, et: number): string {
  return et === ElementType.szarray ? ARRAY : `[${','.repeat(Math.max(0, (rank ?? 1) - 1))}]`;
}

/** The same type; a type parameter not resolved matches anything. */
function same(a: Shape, b: Shape): boolean {
  if (a === '*' || b === '*') return true;
  return sameName(a.name, b.name) && a.args.length === b.args.length && a.args.every((arg, i) => same(arg, b.args[i]!));
}

/** A TypeRef names a nested type without its enclosing one: `Inner` matches `Outer+Inner`. */
function sameName(a: string, b: string): boolean {
  return a === b || a.endsWith(`+${b}`) || b.endsWith(`+${a}`);
}
