/**
 * Paging through large Python containers. pydevd answers a container's children in one piece and
 * caps it: a list shows its first 100 items and a `more` node (ranges of 1,000 items each, or one
 * range inline); a dict or set shows 500 entries and an "Unable to handle:" note. Here a container
 * reads as one flat list — its direct entries with the `more` node replaced by the items behind it,
 * and a capped dict or set continued by evaluating a slice of it in the frame it came from — and a
 * page is cut from that, fetching only the ranges it overlaps.
 */
import type { DebugProtocol } from '@vscode/debugprotocol';
import { isGroupingNode } from '../../core/stopBuilder.js';

type Variable = DebugProtocol.Variable;

/** pydevd's entry in place of what a dict or set holds past its cap. */
const TOO_LARGE = 'Unable to handle:';
/** pydevd evaluates a page of a capped container up to this many entries at once (its own cap). */
const SLICE_ENTRIES = 500;

/** A stretch of the flat list: entries at hand, or ones read on demand. */
type Segment = { length: number; read(from: number, to: number): Promise<Variable[]> };

export interface ContainerSource {
  /** The children of a handle, as pydevd answers them. */
  children(ref: number): Promise<Variable[]>;
  /** Evaluates an expression in a frame; the handle of the value. */
  evaluate(expression: string, frameId: number): Promise<number>;
}

export class ContainerPages {
  /** Where each handle's value came from: its frame, and an expression for it when pydevd gave one. */
  private readonly origins = new Map<number, { frameId: number; expression?: string }>();

  constructor(private readonly source: ContainerSource) {}

  /** Handles are valid while the program stays stopped: forget them when it runs. */
  clear(): void {
    this.origins.clear();
  }

  noteScopes(frameId: number, scopes: DebugProtocol.Scope[]): void {
    for (const scope of scopes) this.origins.set(scope.variablesReference, { frameId });
  }

  noteEvaluated(frameId: number | undefined, expression: string, ref: number): void {
    if (frameId !== undefined && ref > 0) this.origins.set(ref, { frameId, expression });
  }

  /** The children of `ref`: all of its direct entries, or the page [start, start + count) of the flat list. */
  async page(ref: number, start = 0, count?: number): Promise<Variable[]> {
    const direct = await this.read(ref);
    if (count === undefined && start === 0) return direct;
    const segments = await this.segments(ref, direct);
    const end = count === undefined ? Number.POSITIVE_INFINITY : start + count;
    const out: Variable[] = [];
    let offset = 0;
    for (const segment of segments) {
      const from = Math.max(start, offset);
      const to = Math.min(end, offset + segment.length);
      if (from < to) out.push(...(await segment.read(from - offset, to - offset)));
      offset += segment.length;
      if (offset >= end) break;
    }
    return out;
  }

  private async read(ref: number): Promise<Variable[]> {
    const children = (await this.source.children(ref)).map(unpadIndex);
    this.noteChildren(ref, children);
    return children;
  }

  /** Children come from their parent's frame. */
  private noteChildren(parentRef: number, children: Variable[]): void {
    const origin = this.origins.get(parentRef);
    if (!origin) return;
    for (const child of children) {
      if (child.variablesReference > 0) this.origins.set(child.variablesReference, { frameId: origin.frameId, expression: child.evaluateName });
    }
  }

  private async segments(ref: number, direct: Variable[]): Promise<Segment[]> {
    const more = direct.findIndex((v) => v.name === 'more' && /^MoreItems(Range)?$/.test(v.type ?? ''));
    if (more >= 0) return [at(direct.slice(0, more)), await this.moreItems(ref, direct[more]), at(direct.slice(more + 1))];
    const capped = direct.findIndex((v) => v.name === TOO_LARGE);
    const origin = this.origins.get(ref);
    if (capped >= 0 && origin?.expression) {
      const rest = this.beyondCap(origin as { frameId: number; expression: string }, direct, capped);
      if (rest) return [at(direct.slice(0, capped)), rest, at(direct.slice(capped + 1))];
    }
    return [at(direct)];
  }

  /** The items behind a list's `more` node: one inline range, or ranges of 1,000 read as needed. */
  private async moreItems(ref: number, more: Variable): Promise<Segment> {
    const expression = this.origins.get(ref)?.expression;
    const named = (items: Variable[]) => {
      if (!expression) return items;
      const withNames = items.map((v) => ({ ...v, evaluateName: v.evaluateName ?? `${expression}[${v.name}]` }));
      this.noteChildren(ref, withNames);
      return withNames;
    };
    if (more.type === 'MoreItemsRange') {
      const [from, to] = range(more.value);
      return { length: to - from, read: async (a, b) => named((await this.read(more.variablesReference)).slice(a, b)) };
    }
    const buckets = (await this.read(more.variablesReference)).map((b) => ({ ref: b.variablesReference, span: range(b.name) }));
    const first = buckets[0]?.span[0] ?? 0;
    const length = buckets.reduce((sum, b) => sum + b.span[1] - b.span[0], 0);
    return {
      length,
      read: async (a, b) => {
        const items: Variable[] = [];
        for (const bucket of buckets) {
          const [from, to] = [bucket.span[0] - first, bucket.span[1] - first];
          if (to <= a || from >= b) continue;
          items.push(...(await this.read(bucket.ref)).slice(Math.max(0, a - from), b - from));
        }
        return named(items);
      },
    };
  }

  /** A dict or set past pydevd's cap: its further entries, by evaluating slices of it in its frame. */
  private beyondCap(origin: { frameId: number; expression: string }, direct: Variable[], capped: number): Segment | undefined {
    const { frameId, expression } = origin;
    const total = Number(direct.find((v) => v.name === 'len()')?.value);
    // The entries shown before the note, less a subclass's attributes (`expression.attr`) and group nodes.
    const shown = direct.slice(0, capped).filter((v) => !v.evaluateName?.startsWith(`${expression}.`) && !isGroupingNode(v.name)).length;
    if (!Number.isInteger(total) || total <= shown) return undefined;
    return {
      length: total - shown,
      read: async (a, b) => {
        const items: Variable[] = [];
        for (let from = shown + a; from < shown + b; from += SLICE_ENTRIES) {
          const to = Math.min(shown + b, from + SLICE_ENTRIES);
          const slice = sliceExpression(expression, from, to);
          const ref = await this.source.evaluate(slice, frameId);
          if (!ref) break;
          const entries = (await this.source.children(ref)).filter((v) => v.name !== 'len()' && v.name !== TOO_LARGE);
          items.push(...entries.map((v) => ({ ...v, evaluateName: v.evaluateName?.startsWith(slice) ? expression + v.evaluateName.slice(slice.length) : v.evaluateName })));
        }
        return items;
      },
    };
  }
}

function at(items: Variable[]): Segment {
  return { length: items.length, read: async (a, b) => items.slice(a, b) };
}

/** `[100:1100]` → [100, 1100]. */
function range(text: string): [number, number] {
  const m = /\[(\d+):(\d+)\]/.exec(text);
  return m ? [Number(m[1]), Number(m[2])] : [0, 0];
}

/** The entries [from, to) of a dict (as a dict) or a set (as a set), in iteration order. */
function sliceExpression(expression: string, from: number, to: number): string {
  const islice = `__import__('itertools').islice`;
  return `(lambda c: dict(${islice}(c.items(), ${from}, ${to})) if hasattr(c, 'items') else set(${islice}(c, ${from}, ${to})))(${expression})`;
}

/** pydevd pads list indexes with zeros for sorting ("000042"); the index is 42. */
function unpadIndex(variable: Variable): Variable {
  return /^0\d+$/.test(variable.name) ? { ...variable, name: variable.name.replace(/^0+(?=\d)/, '') } : variable;
}
