/**
 * The children of a value, a page at a time: an object's fields (auto-properties under their property
 * names, [DebuggerBrowsable(Never)] members and compiler plumbing left out), array elements (`[1, 0]`
 * for multi-dimensional ones), and the items of lists, queues, stacks, sets and dictionaries
 * (`["key"]`), each with where it lives for set value.
 */
import type { TupleNames } from '../../symbols/typeMembers.js';
import type { Native } from '../nativeSession.js';
import type { FuncEval } from './funcEval.js';
import { ElementType, type NativeValue } from './nativeValue.js';
import type { TypeProxies } from './typeProxy.js';
import type { Child, ChildSource, ReadContext, ValueReader } from './valueReader.js';

/** At most this many items of a RootHidden array are shown in its place. */
const ROOT_HIDDEN_ITEMS = 1000;

export class ChildLister {
  constructor(
    private readonly native: () => Native | undefined,
    private readonly reader: ValueReader,
    private readonly proxies: TypeProxies,
    private readonly funcEval: FuncEval,
  ) {}

  /** Children [start, start + count) and how many there are in all; a collection's items with the element names of their tuples. */
  async page(source: ChildSource, start: number, count: number, context: ReadContext): Promise<{ children: Child[]; total: number }> {
    const page = await this.read(source, start, count, context);
    const names = source.kind !== 'object' ? source.tupleNames : undefined;
    return names ? { ...page, children: page.children.map((c) => ({ ...c, tupleNames: names })) } : page;
  }

  private async read(source: ChildSource, start: number, count: number, context: ReadContext): Promise<{ children: Child[]; total: number }> {
    switch (source.kind) {
      case 'object': {
        const proxy = source.raw ? undefined : await this.proxies.proxyFor(source.value, context.threadId);
        if (!proxy) {
          const own = [...withTupleNames(await this.fields(source.value), source.tupleNames), ...(await this.properties(source.value, context, 'withField'))];
          return slice(own, start, count);
        }
        const raw: Child = { name: '[Raw View]', value: source.value, source: { kind: 'object', value: source.value, raw: true } };
        // A proxy's members are a copy made for the debugger: setting one would not reach the program (no home).
        const viewed = [...(await this.fields(proxy, true)), ...(await this.properties(proxy, context, 'public'))].map(({ home: _copy, ...child }) => ({ ...child, computed: true as const }));
        return slice([...viewed, raw], start, count);
      }
      case 'array':
        return this.elements(source.value, start, count, source.value.len ?? 0, (i) => indexName(i, source.value.dims));
      case 'list':
        return this.elements(source.array, start, count, source.count, (i) => `[${i}]`);
      case 'ring':
        return this.ring(source.array, source.head, source.count, source.newestFirst, start, count);
      case 'hashed':
        return this.hashed(source.entries, source.used, source.keyed, source.count, start, count);
    }
  }

  /** Instance fields from the most derived type down (a proxy's public ones only); statics are read through Type.Field. */
  private async fields(value: NativeValue, publicOnly = false): Promise<Child[]> {
    const wanted: { name: string; module: number; type: number; field: number; tupleNames?: TupleNames }[] = [];
    const seen = new Set<string>();
    for (const type of value.chain ?? []) {
      const view = this.reader.catalog.view(type);
      if (!view) continue;
      for (const f of view.fields) {
        if (f.isStatic || (publicOnly && !f.isPublic && !f.propertyName)) continue;
        const name = f.propertyName ?? f.name;
        if (name.startsWith('<') || (f.hidden && !f.propertyName) || seen.has(name)) continue;
        if (f.propertyName && view.properties.find((p) => p.name === f.propertyName)?.hidden) continue;
        seen.add(name);
        wanted.push({ name, module: view.module, type: view.token, field: f.token, tupleNames: f.tupleNames });
      }
    }
    if (wanted.length === 0) return [];
    const { values } = await this.requireNative().call('fields', { h: value.h, fields: wanted.map(({ module, type, field }) => ({ module, type, field })) });
    return wanted.flatMap((w, i) => {
      const read = values[i];
      return read && 'h' in read ? [{ name: w.name, value: read, home: { kind: 'field' as const, h: value.h, module: w.module, type: w.type, field: w.field }, ...(w.tupleNames && { tupleNames: w.tupleNames }) }] : [];
    });
  }

  /**
   * Property values by their getters (func-eval): a proxy's `public` ones (its members are mostly
   * computed), or an object's own that keep a `field` but compute what they answer (`withField`: C# 14's
   * `get => field ??= Load()`, whose field alone would lie). A [DebuggerBrowsable(RootHidden)] one
   * shows its children in its place (the grouping proxy's Values: the group's items).
   */
  private async properties(value: NativeValue, context: ReadContext, which: 'public' | 'withField'): Promise<Child[]> {
    const out: Child[] = [];
    for (const type of value.chain ?? []) {
      const view = this.reader.catalog.view(type);
      for (const property of view?.properties ?? []) {
        if (property.isStatic || property.hidden || !property.getter || view!.fields.some((f) => f.propertyName === property.name)) continue;
        if (which === 'public' ? !property.isPublic : property.auto || !view!.fields.some((f) => f.name === `<${property.name}>k__BackingField`)) continue;
        const method = { module: view!.module, token: property.getter, sig: { hasThis: true, genericParams: 0, returnType: { kind: 'other' as const, et: 0 }, params: [] }, isStatic: false, declaringModule: view!.module, declaringType: view!.token };
        const read = await this.funcEval.call(context.threadId, method, value, [], property.name).catch(() => undefined);
        if (read && property.rootHidden && (read.et === ElementType.szarray || read.et === ElementType.array)) out.push(...(await this.page({ kind: 'array', value: read }, 0, Math.min(read.len ?? 0, ROOT_HIDDEN_ITEMS), context)).children.map(({ home: _computed, ...item }) => ({ ...item, computed: true as const })));
        else if (read) out.push({ name: property.name, value: read, computed: true });
      }
    }
    return out;
  }

  private async elements(array: NativeValue, start: number, count: number, total: number, name: (i: number) => string) {
    const take = Math.max(0, Math.min(count, total - start));
    if (take === 0) return { children: [], total };
    const { values } = await this.requireNative().call('items', { h: array.h, start, count: take });
    const children = values.flatMap((v, i) => (v ? [{ name: name(start + i), value: v, home: { kind: 'element' as const, h: array.h, index: start + i } }] : []));
    return { children, total };
  }

  /** Queue: oldest first from `_head` around the ring; Stack: newest (the top) first. */
  private async ring(array: NativeValue, head: number, total: number, newestFirst: boolean, start: number, count: number) {
    const capacity = array.len ?? total;
    const children: Child[] = [];
    for (let i = start; i < Math.min(total, start + count); i++) {
      const physical = newestFirst ? total - 1 - i : (head + i) % capacity;
      const { values } = await this.requireNative().call('items', { h: array.h, start: physical, count: 1 });
      if (values[0]) children.push({ name: `[${i}]`, value: values[0], home: { kind: 'element', h: array.h, index: physical } });
    }
    return { children, total };
  }

  /** Dictionary / HashSet entries: the used slots of `_entries` (a free slot's next is below -1). */
  private async hashed(entries: NativeValue, used: number, keyed: boolean, total: number, start: number, count: number) {
    const children: Child[] = [];
    let logical = 0;
    const chunk = 64;
    for (let at = 0; at < used && children.length < count; at += chunk) {
      const { values } = await this.requireNative().call('items', { h: entries.h, start: at, count: Math.min(chunk, used - at) });
      for (const entry of values) {
        if (!entry || children.length >= count) continue;
        const fields = await this.reader.fieldsByName(entry, keyed ? ['next', 'key', 'value'] : ['Next', 'Value']);
        const [next, key, item] = keyed ? fields : [fields[0], undefined, fields[1]];
        if (Number(next?.v ?? 0) < -1) continue;
        if (logical++ < start) continue;
        if (keyed && key && item) {
          const keyText = (await this.reader.describe(key, { threadId: 0, frameIndex: 0 }, true)).value;
          children.push({ name: `[${keyText}]`, value: item });
        } else if (!keyed && item) {
          children.push({ name: `[${logical - 1}]`, value: item });
        }
      }
    }
    return { children, total };
  }

  private requireNative(): Native {
    const native = this.native();
    if (!native) throw new Error('the program is not being debugged any more');
    return native;
  }
}

/** `Item1`… under the names the variable's declaration gave them (`(int count, string label)`). */
function withTupleNames(children: Child[], names: (string | undefined)[] | undefined): Child[] {
  if (!names) return children;
  return children.map((c) => {
    const index = /^Item(\d)$/.exec(c.name)?.[1];
    const name = index ? names[Number(index) - 1] : undefined;
    return name ? { ...c, name } : c;
  });
}

function slice(all: Child[], start: number, count: number): { children: Child[]; total: number } {
  return { children: all.slice(start, start + count), total: all.length };
}

/** `[i]`, or `[i, j]` for a multi-dimensional array (row-major). */
function indexName(flat: number, dims: number[] | undefined): string {
  if (!dims || dims.length < 2) return `[${flat}]`;
  const indices: number[] = [];
  let rest = flat;
  for (let d = dims.length - 1; d >= 0; d--) {
    indices.unshift(rest % dims[d]!);
    rest = Math.floor(rest / dims[d]!);
  }
  return `[${indices.join(', ')}]`;
}
