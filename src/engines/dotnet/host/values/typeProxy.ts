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
    const owner = (value.chain ?? []).find((t) => this.catalog.view(t)?.attributes.typeProxy !== undefined);
    const named = owner && this.catalog.view(owner)?.attributes.typeProxy;
    if (!owner || !named) return undefined;
    // "Namespace.Type, Assembly, Version=…"; a generic proxy ("Namespace.Proxy`1", from typeof(Proxy<>))
    // is made with the type arguments of the type that names it, as Visual Studio does.
    const [, name, arity] = /^(.*?)(?:`(\d+))?$/.exec(named.split(',')[0]!.trim().replace(/\+/g, '.'))!;
    const typeArgs = Number(arity ?? 0);
    if (typeArgs > 0 && typeArgs !== (owner.args?.length ?? 0)) return undefined;
    const type = this.types.find(name!, typeArgs, '');
    const view = type && this.catalog.view({ et: 0x12, module: type.module, token: type.token, path: type.path });
    const ctor = view && methodsNamed(view.meta, tokenRid(view.token), '.ctor').find((m) => m.sig.params.length === 1);
    if (!view || !ctor) return undefined;
    const typeArgsOf = typeArgs > 0 && owner.module !== undefined && owner.token !== undefined ? { h: value.h, module: owner.module, token: owner.token } : undefined;
    return this.funcEval
      .construct(threadId, { module: view.module, token: ctor.token }, [{ h: value.h }], `new ${type.name}(…)`, typeArgsOf)
      .catch(() => undefined);
  }
}
