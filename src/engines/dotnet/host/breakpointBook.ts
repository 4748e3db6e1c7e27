/**
 * The user's line and function breakpoints and where they are bound. A breakpoint is a record plus
 * its placements in loaded modules; it is verified when placed somewhere. Placements share one native
 * breakpoint per code location (module, method, IL offset), so a line and a function breakpoint on
 * the same statement stop once and report both ids. Records bind again whenever a module loads.
 */
import { basename } from 'node:path';
import type { BreakpointBinding, BreakpointSpec, FunctionBreakpointSpec } from '../../../core/types.js';
import type { CodeTarget } from '../symbols/lineResolver.js';
import type { LoadedModule, ModuleRegistry } from './moduleRegistry.js';
import type { Native } from './nativeSession.js';

/** Who placed a native breakpoint: a user record by id, or the debugger itself (entry, async steps). */
export type Owner = { kind: 'user'; id: number; function: boolean } | { kind: 'internal'; tag: string };

interface Location {
  nativeId: number;
  module: number;
  target: CodeTarget;
  owners: Owner[];
}

interface UserRecord {
  spec: BreakpointSpec | FunctionBreakpointSpec;
  /** Hits whose condition held, for the hit condition. */
  hits: number;
  file?: string;
  /** Location keys this record holds. */
  placed: Set<string>;
  /** Where it bound (the first placement), for the answer. */
  bound?: { file?: string; line: number; column?: number };
  /** Why it is not bound, from the modules that know its file. */
  reason?: string;
}

const keyOf = (module: number, target: CodeTarget) => `${module}:${target.methodToken}:${target.ilOffset}`;
const sameOwner = (a: Owner, b: Owner) =>
  a.kind === 'user' && b.kind === 'user' ? a.id === b.id : a.kind === 'internal' && b.kind === 'internal' && a.tag === b.tag;

export class BreakpointBook {
  private readonly records = new Map<number, UserRecord>();
  private readonly locations = new Map<string, Location>();
  private readonly byNativeId = new Map<number, Location>();

  constructor(
    private readonly native: () => Native | undefined,
    private readonly modules: ModuleRegistry,
    /** Checks a condition, hit condition or log message when it is set (throws INVALID_ARGUMENT). */
    private readonly validate: (spec: BreakpointSpec | FunctionBreakpointSpec) => void = () => undefined,
    /** A native breakpoint's owners changed (or it is gone): what was decided for its hits is stale. */
    private readonly ownersChanged: (nativeId: number) => Promise<void> = async () => undefined,
  ) {}

  spec(id: number): BreakpointSpec | FunctionBreakpointSpec | undefined {
    return this.records.get(id)?.spec;
  }

  /** Counts a hit whose condition held; answers the count. */
  countHit(id: number): number {
    const record = this.records.get(id);
    return record ? ++record.hits : 0;
  }

  /** Replaces the line breakpoints of `file`; answers one binding per spec. */
  async setLines(file: string, specs: BreakpointSpec[]): Promise<BreakpointBinding[]> {
    for (const [id, record] of this.records) {
      if (record.file === file) await this.drop(id);
    }
    for (const spec of specs) {
      this.validate(spec);
      this.records.set(spec.id, { spec, file, placed: new Set(), hits: 0 });
      for (const module of this.modules.withSymbols()) await this.bindIn(spec.id, module);
    }
    return specs.map((s) => this.binding(s.id));
  }

  /** Replaces every function breakpoint. */
  async setFunctions(specs: FunctionBreakpointSpec[]): Promise<BreakpointBinding[]> {
    for (const [id, record] of this.records) {
      if ('function' in record.spec) await this.drop(id);
    }
    for (const spec of specs) {
      this.validate(spec);
      this.records.set(spec.id, { spec, placed: new Set(), hits: 0 });
      for (const module of this.modules.withSymbols()) await this.bindIn(spec.id, module);
    }
    return specs.map((s) => this.binding(s.id));
  }

  /** Binds every record this module can hold; answers the bindings that changed. */
  async moduleLoaded(module: LoadedModule): Promise<BreakpointBinding[]> {
    const changed: BreakpointBinding[] = [];
    for (const id of this.records.keys()) {
      const before = this.records.get(id)!.placed.size;
      await this.bindIn(id, module);
      if (this.records.get(id)!.placed.size !== before) changed.push(this.binding(id));
    }
    return changed;
  }

  moduleUnloaded(handle: number): void {
    for (const [key, location] of this.locations) {
      if (location.module !== handle) continue;
      this.locations.delete(key);
      this.byNativeId.delete(location.nativeId);
      for (const record of this.records.values()) record.placed.delete(key);
    }
  }

  /** Places a breakpoint of the debugger's own (entry, async resume); answers its native id. */
  async placeInternal(tag: string, module: number, target: CodeTarget): Promise<number> {
    return (await this.place(module, target, { kind: 'internal', tag })).nativeId;
  }

  async removeInternal(tag: string): Promise<void> {
    for (const [key, location] of [...this.locations]) await this.release(key, location, { kind: 'internal', tag });
  }

  /** Where a native breakpoint is: the frame it stops in, known without a stack walk. */
  whereIs(nativeId: number): { module: number; methodToken: number; ilOffset: number } | undefined {
    const location = this.byNativeId.get(nativeId);
    return location && { module: location.module, ...location.target };
  }

  /** Who owns a native breakpoint that was hit. */
  ownersOf(nativeId: number): Owner[] {
    return this.byNativeId.get(nativeId)?.owners ?? [];
  }

  bindings(): BreakpointBinding[] {
    return [...this.records.keys()].map((id) => this.binding(id));
  }

  binding(id: number): BreakpointBinding {
    const record = this.records.get(id);
    if (!record) return { id, verified: false, message: 'unknown breakpoint' };
    if (record.placed.size > 0 && record.bound) {
      return { id, verified: true, file: record.bound.file, line: record.bound.line, column: record.bound.column };
    }
    if (record.reason) return { id, verified: false, message: record.reason };
    const what = 'function' in record.spec ? `a method named ${record.spec.function}` : `code from ${basename(record.file ?? '')}`;
    return { id, verified: false, pending: true, message: `no loaded module has ${what} yet; it binds when one loads` };
  }

  private async bindIn(id: number, module: LoadedModule): Promise<void> {
    const record = this.records.get(id);
    const symbols = module.symbols;
    if (!record || !symbols) return;
    const owner: Owner = { kind: 'user', id, function: 'function' in record.spec };
    if ('function' in record.spec) {
      for (const method of symbols.findMethods(record.spec.function)) {
        const target = symbols.firstStatement(method);
        if (!target) continue;
        await this.placeFor(record, module, target, owner);
        const at = symbols.location(target.methodToken, target.ilOffset);
        record.bound ??= at ? { file: at.file, line: at.line, column: at.column } : { line: 0 };
      }
      return;
    }
    const spec = record.spec;
    const resolved = symbols.resolveLine(record.file!, spec.line, spec.column);
    if (!resolved.ok) {
      if (symbols.documentsFor(record.file!).length > 0) record.reason = resolved.message;
      return;
    }
    for (const target of resolved.targets) await this.placeFor(record, module, target, owner);
    record.reason = undefined;
    record.bound ??= { file: resolved.file, line: resolved.line, column: resolved.column };
  }

  private async placeFor(record: UserRecord, module: LoadedModule, target: CodeTarget, owner: Owner): Promise<void> {
    const key = keyOf(module.handle, target);
    if (record.placed.has(key)) return;
    try {
      await this.place(module.handle, target, owner);
      record.placed.add(key);
    } catch (e) {
      record.reason = `the runtime refused the breakpoint: ${(e as Error).message}`;
    }
  }

  private async place(module: number, target: CodeTarget, owner: Owner): Promise<Location> {
    const key = keyOf(module, target);
    let location = this.locations.get(key);
    if (!location) {
      const native = this.native();
      if (!native) throw new Error('the program is not being debugged');
      const { id } = await native.call('createBreakpoint', { module, token: target.methodToken, ilOffset: target.ilOffset });
      location = { nativeId: id, module, target, owners: [] };
      this.locations.set(key, location);
      this.byNativeId.set(id, location);
    }
    if (!location.owners.some((o) => sameOwner(o, owner))) {
      location.owners.push(owner);
      await this.ownersChanged(location.nativeId);
    }
    return location;
  }

  private async drop(id: number): Promise<void> {
    const record = this.records.get(id);
    this.records.delete(id);
    if (!record) return;
    for (const key of record.placed) {
      const location = this.locations.get(key);
      if (location) await this.release(key, location, { kind: 'user', id, function: 'function' in record.spec });
    }
  }

  private async release(key: string, location: Location, owner: Owner): Promise<void> {
    const before = location.owners.length;
    location.owners = location.owners.filter((o) => !sameOwner(o, owner));
    if (location.owners.length === before) return;
    await this.ownersChanged(location.nativeId);
    if (location.owners.length > 0) return;
    this.locations.delete(key);
    this.byNativeId.delete(location.nativeId);
    await this.native()?.call('removeBreakpoint', { id: location.nativeId }).catch(() => undefined);
  }
}
