/**
 * Who awaits a running async method: its builder's task holds, as its continuation, the box of the
 * awaiting async method's state machine (.NET registers an `await` that way). Stepping out of (or off
 * the end of) an async method then means running until that state machine resumes: breakpoints at its
 * await resume offsets (PDB async stepping information), accepted only for that very object.
 */
import { methodsNamed } from '../symbols/typeMembers.js';
import { tokenRid } from '../symbols/tableSchema.js';
import type { CodeTarget } from '../symbols/lineResolver.js';
import type { ModuleRegistry } from './moduleRegistry.js';
import type { Native } from './nativeSession.js';
import type { FrameHandle } from './stackReader.js';
import type { ValueReader } from './values/valueReader.js';

export interface Awaiter {
  /** The awaiting state machine, kept alive across runs. */
  kept: number;
  module: number;
  resumes: CodeTarget[];
}

const STATE_MACHINE_BOX = 'System.Runtime.CompilerServices.AsyncTaskMethodBuilder`1+AsyncStateMachineBox`1';

export class AsyncAwaiters {
  constructor(
    private readonly native: () => Native | undefined,
    private readonly modules: ModuleRegistry,
    private readonly reader: () => ValueReader,
  ) {}

  /** The awaiter of the async method running in `frame`, if one is suspended on it. */
  async find(frame: FrameHandle): Promise<Awaiter | undefined> {
    const native = this.native();
    const symbols = this.modules.get(frame.module)?.symbols;
    if (!native || !symbols?.asyncInfo(frame.methodToken)) return undefined;
    const reader = this.reader();
    const { arguments: args } = await native.call('frameValues', { threadId: frame.threadId, frameIndex: frame.nativeIndex });
    const stateMachine = args[0];
    if (!stateMachine || stateMachine.null) return undefined;
    const [builder] = await reader.fieldsByName(stateMachine, ['<>t__builder']);
    const [task] = builder ? await reader.fieldsByName(builder, ['m_task']) : [];
    const [continuation] = task && !task.null ? await reader.fieldsByName(task, ['m_continuationObject']) : [];
    if (!continuation || continuation.null || reader.catalog.view(continuation.chain?.[0])?.fullName !== STATE_MACHINE_BOX) return undefined;
    const [awaiting] = await reader.fieldsByName(continuation, ['StateMachine']);
    const type = awaiting?.chain?.[0];
    const view = reader.catalog.view(type);
    const awaiterSymbols = type?.module !== undefined ? this.modules.get(type.module)?.symbols : undefined;
    if (!awaiting || !view || !awaiterSymbols) return undefined;
    const moveNext = methodsNamed(view.meta, tokenRid(view.token), 'MoveNext')[0];
    const resumes = (moveNext && awaiterSymbols.asyncInfo(moveNext.token)?.awaits) ?? [];
    if (resumes.length === 0) return undefined;
    const { kept } = await native.call('keep', { h: awaiting.h });
    if (!kept) return undefined;
    return { kept, module: view.module, resumes: resumes.map((a) => ({ methodToken: a.resumeMethod, ilOffset: a.resumeOffset })) };
  }

  /** Whether the state machine running on `threadId`'s top frame is the awaiter. */
  async isAwaiter(threadId: number, awaiter: Awaiter): Promise<boolean> {
    const native = this.native();
    if (!native) return false;
    const { arguments: args } = await native.call('frameValues', { threadId, frameIndex: 0 });
    return !!args[0] && (await native.call('sameObject', { h: args[0].h, kept: awaiter.kept })).same;
  }

  async forget(awaiter: Awaiter): Promise<void> {
    await this.native()?.call('unkeep', { kept: awaiter.kept }).catch(() => undefined);
  }
}
