/**
 * [DebuggerTypeProxy]: a type can name another type that shows its contents. The proxy is made in
 * the program (its constructor taking the object, by func-eval) and its members are shown instead,
 * with the object's own fields under "[Raw View]", as Visual Studio does.
 */
import { methodsNamed } from '../../symbols/typeMembers.js';
import { tokenRid } from '../../symbols/tableSchema.js';
import type { TypeIndex } from '../evaluation/typeIndex.js';
import type { FuncEval } from './funcEval.js';
import type { NativeValue } from './nativeValue.js';
import type { TypeCatalog } from './typeCatalog.js';

export class TypeProxies {
  constructor(
    private readonly catalog: TypeCatalog,
    private readonly funcEval: FuncEval,
    private readonly types: TypeIndex,
  ) {}

  /** The proxy object for `value`, when its type (or a base type) names one that can be made. */
  async proxyFor(value: NativeValue, threadId: number): Promise<NativeValue | undefined> {
    const named = (value.chain ?? []).map((t) => this.catalog.view(t)?.attributes.typeProxy).find((p) => p !== undefined);
    if (!named) return undefined;
    // "Namespace.Type, Assembly, Version=…" (or a generic proxy, which is not supported).
    const name = named.split(',')[0]!.trim().replace(/\+/g, '.');
    if (name.includes('`')) return undefined;
    const type = this.types.find(name, 0, '');
    const view = type && this.catalog.view({ et: 0x12, module: type.module, token: type.token, path: type.path });
    const ctor = view && methodsNamed(view.meta, tokenRid(view.token), '.ctor').find((m) => m.sig.params.length === 1);
    if (!view || !ctor) return undefined;
    return this.funcEval
      .construct(threadId, { module: view.module, token: ctor.token }, [{ h: value.h }], `new ${type.name}(…)`)
      .catch(() => undefined);
  }
}
