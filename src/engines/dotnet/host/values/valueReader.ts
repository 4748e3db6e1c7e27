/**
 * Turns runtime values into what the agent reads: a C# one-line value and type, and the source of
 * its children. Framework structs (decimal, DateTime, TimeSpan, Guid, Nullable, tuples, key/value
 * pairs), enums and the common collections are read from their fields; other objects show their
 * [DebuggerDisplay], else their ToString() override (func-eval), else `{Type}`.
 */
import type { TupleNames } from '../../symbols/typeMembers.js';
import type { NativeType } from '../nativeEvents.js';
import type { FieldRef, Native, SetTarget } from '../nativeSession.js';
import type { FrameHandle } from '../stackReader.js';
import { formatDouble, formatSingle } from '../../expressions/numeric.js';
import { formatChar, formatDateTime, formatDecimal, formatEnum, formatGuid, formatTimeSpan, quoteString } from './formatValue.js';
import type { FuncEval } from './funcEval.js';
import { ElementType, isPrimitive, KEYWORDS, type NativeValue } from './nativeValue.js';
import type { TypeCatalog, TypeView } from './typeCatalog.js';

export interface Described {
  value: string;
  type: string;
  children?: ChildSource;
  /** Items of a collection or array. */
  count?: number;
}

export type ChildSource =
  /** `raw`: the object's own fields even when its type has a [DebuggerTypeProxy]; a collection's `tupleNames`: its items' (tupleNames.ts). */
  | { kind: 'object'; value: NativeValue; raw?: boolean; tupleNames?: (string | undefined)[] }
  | { kind: 'array'; value: NativeValue; tupleNames?: TupleNames }
  | { kind: 'list'; array: NativeValue; count: number; tupleNames?: TupleNames }
  | { kind: 'ring'; array: NativeValue; head: number; count: number; newestFirst: boolean; tupleNames?: TupleNames }
  | { kind: 'hashed'; entries: NativeValue; used: number; keyed: boolean; count: number; tupleNames?: TupleNames };

export interface Child {
  name: string;
  value: NativeValue;
  /** Where it lives, for set value. */
  home?: SetTarget;
  /** Its children, when they are not the ones its value would have (the raw view of a proxied object). */
  source?: ChildSource;
  /** A tuple's element names, from the declaration of the variable holding it. */
  tupleNames?: (string | undefined)[];
  /** Read through a getter or a debugger view ([DebuggerTypeProxy]), not where the program keeps it: it cannot be set. */
  computed?: true;
}

/** Where evaluations run: the stopped thread (func-eval) and the frame (statics, DebuggerDisplay). */
export interface ReadContext {
  threadId: number;
  frameIndex: number;
  /** The stopped frame the values were read in (set value evaluates the new value there). */
  frame?: FrameHandle;
  /** Evaluates a [DebuggerDisplay] hole with `self` as `this`; `noQuotes` (`,nq`): a string as it is, neither quoted nor escaped. */
  displayHole?: (expression: string, self: NativeValue, noQuotes?: boolean) => Promise<string>;
  /**
   * ToString() texts by object address, shared by values read together (one frame's variables, read
   * before any of them was evaluated, so one address is one object): a local holding the same object
   * as an argument costs no second func-eval.
   */
  toStrings?: Map<string, Promise<NativeValue | undefined>>;
}

/** Below the server's own cap on a value (core/valueText.ts), so the full length stays in the text. */
const MAX_STRING_CHARS = 900;
const COLLECTIONS = new Set([
  'System.Collections.Generic.List`1',
  'System.Collections.Generic.Dictionary`2',
  'System.Collections.Generic.HashSet`1',
  'System.Collections.Generic.Queue`1',
  'System.Collections.Generic.Stack`1',
]);
/** A boxed primitive is an object of one of these types holding the value in `m_value`. */
const BOXED_PRIMITIVES = new Set(
  ['Boolean', 'Char', 'SByte', 'Byte', 'Int16', 'UInt16', 'Int32', 'UInt32', 'Int64', 'UInt64', 'Single', 'Double', 'IntPtr', 'UIntPtr'].map((n) => `System.${n}`),
);
/** Types whose ToString() is the framework's own (never worth a func-eval). */
const PLAIN_TOSTRING = new Set(['System.Object', 'System.ValueType', 'System.Enum']);

export class ValueReader {
  constructor(
    private readonly native: () => Native | undefined,
    readonly catalog: TypeCatalog,
    private readonly funcEval: FuncEval,
  ) {}

  /** The one-line value and type; `shallow` skips func-evals (values nested in another's text). */
  async describe(value: NativeValue, context: ReadContext, shallow = false): Promise<Described> {
    if (value.null) return { value: 'null', type: this.catalog.name(value.type) };
    const et = value.et;
    if (isPrimitive(et)) return { value: primitiveText(et!, value.v ?? '?'), type: KEYWORDS[et!] ?? '?' };
    if (et === ElementType.string) return { value: stringText(value), type: 'string' };
    if (et === ElementType.szarray || et === ElementType.array) {
      const type = this.catalog.name(value.type);
      const dims = value.dims && value.dims.length > 1 ? value.dims.join(', ') : String(value.len ?? 0);
      return { value: `${type.replace(/\[,*\]$/, '')}[${dims}]`, type, children: value.len ? { kind: 'array', value } : undefined, count: value.len };
    }
    return this.describeObject(value, context, shallow);
  }

  /** Reads fields by name (searched up the type chain; auto-properties by their property name). */
  async fieldsByName(value: NativeValue, names: string[]): Promise<(NativeValue | undefined)[]> {
    const refs: (FieldRef | undefined)[] = names.map((name) => this.fieldRef(value, name));
    const wanted = refs.filter((r): r is FieldRef => !!r);
    if (wanted.length === 0) return names.map(() => undefined);
    const { values } = await this.requireNative().call('fields', { h: value.h, fields: wanted });
    let next = 0;
    return refs.map((r) => {
      if (!r) return undefined;
      const read = values[next++];
      return read && 'h' in read ? read : undefined;
    });
  }

  fieldRef(value: NativeValue, name: string): FieldRef | undefined {
    for (const type of value.chain ?? []) {
      const view = this.catalog.view(type);
      const field = view?.fields.find((f) => !f.isStatic && (f.name === name || f.propertyName === name));
      if (view && field) return { module: view.module, type: view.token, field: field.token };
    }
    return undefined;
  }

  private async describeObject(value: NativeValue, context: ReadContext, shallow: boolean): Promise<Described> {
    const chain = value.chain ?? [];
    const view = this.catalog.view(chain[0]);
    const type = this.catalog.name(chain[0]);
    if (!view) return { value: `{${type}}`, type, children: { kind: 'object', value } };
    const special = await this.framework(value, view, type, context, shallow);
    if (special) return special;
    const children = { kind: 'object' as const, value };
    const display = chain.map((t) => this.catalog.view(t)?.attributes.display).find((d) => d !== undefined);
    if (display !== undefined && context.displayHole && !shallow) {
      return { value: await this.debuggerDisplay(display, value, context), type, children };
    }
    if (!shallow && this.overridesToString(value)) {
      const text = await this.toStringOf(value, chain, type, context);
      if (text?.str !== undefined) return { value: text.str, type, children };
    }
    return { value: `{${type}}`, type, children };
  }

  private toStringOf(value: NativeValue, chain: NativeType[], type: string, context: ReadContext): Promise<NativeValue | undefined> {
    const known = value.addr === undefined ? undefined : context.toStrings?.get(value.addr);
    if (known) return known;
    const method = this.catalog.findMethod(chain, 'ToString', 0, false);
    const text = method ? this.funcEval.call(context.threadId, method, value, [], `${type}.ToString()`).catch(() => undefined) : Promise.resolve(undefined);
    if (value.addr !== undefined) context.toStrings?.set(value.addr, text);
    return text;
  }

  /** Framework types shown from their fields; undefined for any other type. */
  private async framework(value: NativeValue, view: TypeView, type: string, context: ReadContext, shallow: boolean): Promise<Described | undefined> {
    const chain = value.chain ?? [];
    const base = this.catalog.view(chain[1])?.fullName;
    const read = (names: string[]) => this.fieldsByName(value, names);
    if (base === 'System.Enum') {
      const [raw] = await read(['value__']);
      const info = this.catalog.enumInfo(chain[0]!);
      const number = BigInt(raw?.v ?? '0');
      return { value: info ? formatEnum(number, info.constants, info.flags) : number.toString(), type };
    }
    if (BOXED_PRIMITIVES.has(view.fullName)) {
      const [inner] = await read(['m_value']);
      return inner ? this.describe(inner, context, shallow) : undefined;
    }
    switch (view.fullName) {
      case 'System.Decimal': {
        const [flags, hi, lo] = await read(['_flags', '_hi32', '_lo64']);
        return { value: formatDecimal(Number(flags?.v ?? 0), BigInt(hi?.v ?? 0), BigInt(lo?.v ?? 0)), type: 'decimal' };
      }
      case 'System.DateTime': {
        const [data] = await read(['_dateData']);
        return { value: formatDateTime(BigInt(data?.v ?? 0)), type };
      }
      case 'System.TimeSpan': {
        const [ticks] = await read(['_ticks']);
        return { value: formatTimeSpan(BigInt(ticks?.v ?? 0)), type };
      }
      case 'System.Guid': {
        const parts = await read(['_a', '_b', '_c', '_d', '_e', '_f', '_g', '_h', '_i', '_j', '_k']);
        const n = parts.map((p) => Number(p?.v ?? 0));
        return { value: formatGuid(n[0]!, n[1]!, n[2]!, n.slice(3)), type };
      }
      case 'System.Nullable`1': {
        const [hasValue, inner] = await read(['hasValue', 'value']);
        if (hasValue?.v !== 'true' || !inner) return { value: 'null', type };
        return { ...(await this.describe(inner, context, shallow)), type };
      }
      case 'System.Collections.Generic.KeyValuePair`2': {
        const [key, item] = await read(['key', 'value']);
        return { value: `[${await this.short(key, context)}, ${await this.short(item, context)}]`, type, children: { kind: 'object', value } };
      }
    }
    if (/^System\.ValueTuple`\d$/.test(view.fullName)) {
      const items = await read(view.fields.filter((f) => !f.isStatic).map((f) => f.name));
      const texts = await Promise.all(items.map((i) => this.short(i, context)));
      return { value: `(${texts.join(', ')})`, type, children: { kind: 'object', value } };
    }
    if (COLLECTIONS.has(view.fullName)) return this.collection(value, view, type);
    return undefined;
  }

  private async collection(value: NativeValue, view: TypeView, type: string): Promise<Described> {
    const name = view.fullName;
    if (name.endsWith('List`1')) {
      const [items, size] = await this.fieldsByName(value, ['_items', '_size']);
      const count = Number(size?.v ?? 0);
      return { value: `Count = ${count}`, type, count, children: items && count ? { kind: 'list', array: items, count } : undefined };
    }
    if (name.endsWith('Queue`1') || name.endsWith('Stack`1')) {
      const [array, size, head] = await this.fieldsByName(value, ['_array', '_size', '_head']);
      const count = Number(size?.v ?? 0);
      const children = array && count ? { kind: 'ring' as const, array, head: Number(head?.v ?? 0), count, newestFirst: name.endsWith('Stack`1') } : undefined;
      return { value: `Count = ${count}`, type, count, children };
    }
    const [entries, used, free] = await this.fieldsByName(value, ['_entries', '_count', '_freeCount']);
    const count = Number(used?.v ?? 0) - Number(free?.v ?? 0);
    const children = entries && count ? { kind: 'hashed' as const, entries, used: Number(used?.v ?? 0), keyed: name.endsWith('Dictionary`2'), count } : undefined;
    return { value: `Count = ${count}`, type, count, children };
  }

  /** A nested value's text, without func-evals. */
  private async short(value: NativeValue | undefined, context: ReadContext): Promise<string> {
    return value ? (await this.describe(value, context, true)).value : '?';
  }

  /**
   * `{expr}` holes evaluated with the object as `this`, one after the other (each is a func-eval of
   * the stopped thread); `,nq` writes a string as it is (no quotes, no escapes); `\{` and `\}` are literal braces (an
   * anonymous type's display starts with one).
   */
  private async debuggerDisplay(format: string, value: NativeValue, context: ReadContext): Promise<string> {
    let text = '';
    for (const part of format.split(/(\\[{}]|\{[^{}]*\})/)) {
      if (part === '\\{' || part === '\\}') {
        text += part[1];
        continue;
      }
      if (!part.startsWith('{') || !part.endsWith('}')) {
        text += part;
        continue;
      }
      const [expression, ...specifiers] = part.slice(1, -1).split(',');
      try {
        text += await context.displayHole!(expression!.trim(), value, specifiers.some((s) => s.trim() === 'nq'));
      } catch (e) {
        text += `{${(e as Error).message}}`;
      }
    }
    return text;
  }

  private overridesToString(value: NativeValue): boolean {
    for (const type of value.chain ?? []) {
      const view = this.catalog.view(type);
      if (!view || PLAIN_TOSTRING.has(view.fullName)) return false;
      if (this.catalog.findMethod([type], 'ToString', 0, false)) return true;
    }
    return false;
  }

  private requireNative(): Native {
    const native = this.native();
    if (!native) throw new Error('the program is not being debugged any more');
    return native;
  }
}

function primitiveText(et: number, v: string): string {
  switch (et) {
    case ElementType.char:
      return formatChar(Number(v));
    case ElementType.r4:
      return formatSingle(Number(v));
    case ElementType.r8:
      return formatDouble(Number(v));
    default:
      return v;
  }
}

function stringText(value: NativeValue): string {
  const text = value.str ?? '';
  const shown = text.length > MAX_STRING_CHARS ? text.slice(0, MAX_STRING_CHARS) : text;
  const full = value.len ?? text.length;
  return shown.length < full ? `${quoteString(shown)}… (${full} chars)` : quoteString(shown);
}
