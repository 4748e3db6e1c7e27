/**
 * Edit and Continue in the debugger host: modules made editable when they load (launch only: the
 * runtime enables it only for code compiled after the debugger asked, never on attach), what Roslyn
 * needs before an edit (the built sources of edited files, the runtime's capabilities, the frames
 * running the program's code), the deltas applied through ICorDebug with the symbols following
 * them, and each frame still running an old body moved to the new one at its next statement
 * (FunctionRemapOpportunity → RemapFunction at the IL offset of the statement Roslyn mapped it to).
 */
import { DebugError } from '../../../core/errors.js';
import { notLoadedError } from '../../../core/liveEdit.js';
import { methodsNamed } from '../symbols/typeMembers.js';
import { Table, token, tokenRid } from '../symbols/tableSchema.js';
import type { ActiveStatement, ModuleDelta, ModuleInput } from '../worker/encProtocol.js';
import type { LoadedModule, ModuleRegistry } from './moduleRegistry.js';
import type { NativeEvent } from './nativeEvents.js';
import type { Native } from './nativeSession.js';
import { SourceSnapshots } from './sourceSnapshots.js';
import type { StackReader } from './stackReader.js';
import type { FuncEval } from './values/funcEval.js';

/** What CoreCLR (8 and later) answers when asked; used when it cannot be asked (no thread at a safe point). */
export const ASSUMED_CAPABILITIES = [
  'Baseline',
  'AddMethodToExistingType',
  'AddStaticFieldToExistingType',
  'AddInstanceFieldToExistingType',
  'NewTypeDefinition',
  'ChangeCustomAttributes',
  'UpdateParameters',
  'GenericUpdateMethod',
  'GenericAddMethodToExistingType',
  'GenericAddFieldToExistingType',
];

const MAX_FRAMES_PER_THREAD = 200;

export interface EditPreparation {
  modules: ModuleInput[];
  capabilities: string[];
  activeStatements: ActiveStatement[];
  notes: string[];
}

export interface StaleFrame {
  threadId: number;
  name: string;
  file?: string;
  line?: number;
  /** It moves to the new code at its next statement (else it runs the old code until it returns). */
  remapsAtNextStatement: boolean;
}

export interface EditApplied {
  staleFrames: StaleFrame[];
  /** What changed, by file, as C# names it: `Shop.Pricing.TotalAsync (body)`, `new method Shop.Pricing.Tax`. */
  items: { file: string; item: string }[];
}

interface Frame {
  threadId: number;
  module: number;
  token: number;
  version: number;
  ilOffset: number;
  name: string;
  statement: ActiveStatement;
}

export class EditAndContinue {
  private readonly sources = new SourceSnapshots();
  private readonly editable = new Set<number>();
  private capabilities?: string[];
  private frames: Frame[] = [];
  /** Where a thread's frame at (module, method, version, IL offset) goes in the new code: line and column of its statement. */
  private readonly remapTargets = new Map<string, { line: number; column: number }>();
  /** Launch: modules are made editable as they load; attach: the runtime cannot. */
  launched = false;

  constructor(
    private readonly native: () => Native | undefined,
    private readonly modules: ModuleRegistry,
    private readonly stack: StackReader,
    private readonly funcEval: () => FuncEval,
  ) {}

  /** A module of the user's code loaded (its load still held): compile it for Edit and Continue. */
  async moduleLoaded(module: LoadedModule): Promise<void> {
    const native = this.native();
    if (!this.launched || !native || !module.symbols) return;
    const { enabled } = await native.call('enableEnc', { module: module.handle });
    if (!enabled) return;
    this.editable.add(module.handle);
    await this.sources.take(module.handle, module.symbols);
  }

  moduleUnloaded(handle: number): void {
    this.editable.delete(handle);
    this.sources.forget(handle);
  }

  /**
   * What Roslyn needs, read from the stopped program. `threadId`: the thread of a stop the session
   * knows (a breakpoint, a step: at a safe point, so the runtime can be asked its capabilities by a
   * func-eval); undefined when the program was paused for the edit, where threads may sit in native
   * waits a func-eval cannot interrupt: the capabilities asked before, else those of .NET 8 and later.
   */
  async prepare(threadId: number | undefined, files?: string[] | null): Promise<EditPreparation> {
    if (!this.launched) {
      throw new DebugError(
        'UNSUPPORTED',
        'Edit and Continue is not available in an attached process: the runtime enables it only for code compiled after a debugger asked, at launch.',
        'Launch the program under the debugger (session_launch), or session_restart after editing.',
      );
    }
    const notes: string[] = [];
    const editable = this.modules.all().filter((m) => this.editable.has(m.handle));
    if (editable.length === 0) {
      throw new DebugError('UNSUPPORTED', 'no module of this program can be edited: none has a Portable PDB, or the runtime refused Edit and Continue for them (an optimized Release build?)', 'Build in Debug and launch again.');
    }
    // Files the agent names that no module was built from: nothing of them runs (as Node and Python answer).
    const unknown = (files ?? []).filter((file) => !editable.some((m) => m.symbols && m.symbols.documentsFor(file).length > 0));
    if (unknown.length) throw notLoadedError(unknown);
    const modules = await Promise.all(editable.map(async (m) => ({ path: m.path, originals: await this.sources.changedOriginals(m.handle) })));
    if (!this.capabilities && threadId !== undefined) {
      this.capabilities = await this.askCapabilities(threadId).catch((e: Error) => {
        notes.push(`the runtime could not be asked for its Edit and Continue capabilities (${e.message}); assumed those of .NET 8 and later`);
        return undefined;
      });
    }
    this.frames = await this.activeFrames();
    return { modules, capabilities: this.capabilities ?? ASSUMED_CAPABILITIES, activeStatements: this.frames.map((f) => f.statement), notes };
  }

  /** Applies Roslyn's deltas (the program stopped); answers what changed and the frames that still run old code. */
  async apply(deltas: ModuleDelta[]): Promise<EditApplied> {
    const native = this.requireNative();
    const updated = new Set<string>();
    const items: EditApplied['items'] = [];
    for (const delta of deltas) {
      const module = this.modules.all().find((m) => m.path === delta.module && this.editable.has(m.handle));
      if (!module?.symbols) throw new DebugError('INTERNAL', `the program has no editable module ${delta.module}`);
      await native.call('applyChanges', { module: module.handle, metadata: delta.metadata, il: delta.il });
      module.symbols.applyEdit(delta);
      for (const method of delta.methods) {
        updated.add(`${module.handle}:${method.token}`);
        const file = method.points.find((p) => !p.hidden)?.document;
        if (!file) continue;
        const name = module.symbols.methodName(method.token);
        const item = method.added ? `new method ${name}` : `${name} (body)`;
        if (!items.some((i) => i.file === file && i.item === item)) items.push({ file, item });
      }
      for (const statement of delta.activeStatements) {
        for (const frame of this.frames) {
          if (frame.module !== module.handle || frame.token !== statement.token || frame.version !== statement.version || frame.ilOffset !== statement.ilOffset) continue;
          // A frame partway through its statement (waiting for a call, its offset the instruction
          // after it) would run again, from the new statement's start, what already ran: it stays.
          if (frame.statement.partial) continue;
          this.remapTargets.set(remapKey(frame.threadId, frame.module, frame.token, frame.version, frame.ilOffset), { line: statement.newSpan.startLine, column: statement.newSpan.startColumn });
        }
      }
    }
    const staleFrames = this.frames
      .filter((f) => updated.has(`${f.module}:${f.token}`))
      .map((f) => ({
        threadId: f.threadId,
        name: f.name,
        file: f.statement.document,
        line: f.statement.startLine,
        remapsAtNextStatement: this.remapTargets.has(remapKey(f.threadId, f.module, f.token, f.version, f.ilOffset)),
      }));
    return { staleFrames, items };
  }

  /**
   * A frame running an old body reached a statement (the held callback): moved to the new body's
   * statement Roslyn mapped it to, or left on the old one (it finishes there) when none is known.
   */
  async remapOpportunity(event: Extract<NativeEvent, { event: 'remapOpportunity' }>): Promise<void> {
    const native = this.requireNative();
    const target = this.remapTargets.get(remapKey(event.threadId, event.module, event.token, event.oldVersion, event.ilOffset));
    const symbols = this.modules.get(event.module)?.symbols;
    const point = target && symbols?.pdb
      .sequencePoints(tokenRid(event.token), event.newVersion)
      .find((p) => !p.hidden && p.startLine === target.line && p.startColumn === target.column);
    try {
      if (point) await native.call('remap', { threadId: event.threadId, ilOffset: point.ilOffset });
    } finally {
      // Whatever failed, the thread must not stay held: unmoved, it finishes on the old body.
      await native.call('release', {});
    }
  }

  /** Every frame of the user's code on every thread, as Roslyn's active statements. */
  private async activeFrames(): Promise<Frame[]> {
    const native = this.requireNative();
    const { threads } = await native.call('threads', {});
    const frames: Frame[] = [];
    for (const thread of threads) {
      const stack = await native.call('stack', { threadId: thread.id, start: 0, count: MAX_FRAMES_PER_THREAD }).catch(() => undefined);
      stack?.frames.forEach((frame, index) => {
        if (frame.kind !== 'il' || !this.editable.has(frame.module)) return;
        const user = this.stack.resolve(frame, thread.id, index);
        const symbols = this.modules.get(frame.module)?.symbols;
        if (!user || !symbols) return;
        const version = frame.version ?? 1;
        const latest = symbols.pdb.edits.at(tokenRid(frame.token));
        const { file, line, column, endLine, endColumn, atStatementStart } = user.location;
        frames.push({
          threadId: thread.id,
          module: frame.module,
          token: frame.token,
          version,
          ilOffset: frame.ilOffset,
          name: user.name,
          statement: {
            module: this.modules.get(frame.module)!.path,
            token: frame.token,
            version,
            ilOffset: frame.ilOffset,
            document: file,
            startLine: line,
            startColumn: column,
            endLine,
            endColumn,
            leaf: index === 0,
            partial: index !== 0 || !atStatementStart,
            stale: latest !== undefined && latest.version > version,
          },
        });
      });
    }
    return frames;
  }

  /** The runtime's own answer: System.Reflection.Metadata.MetadataUpdater.GetCapabilities(), by func-eval. */
  private async askCapabilities(threadId: number): Promise<string[]> {
    const coreLib = this.modules.all().find((m) => m.name === 'System.Private.CoreLib.dll');
    const meta = coreLib && this.modules.metadata(coreLib.handle);
    if (!coreLib || !meta) throw new Error('System.Private.CoreLib is not loaded');
    let typeRid = 0;
    for (let rid = 1; rid <= meta.typeCount && !typeRid; rid++) {
      const type = meta.type(rid);
      if (type.name === 'MetadataUpdater' && type.namespace === 'System.Reflection.Metadata') typeRid = rid;
    }
    const method = typeRid ? methodsNamed(meta, typeRid, 'GetCapabilities')[0] : undefined;
    if (!method) throw new Error('this runtime has no MetadataUpdater.GetCapabilities');
    const ref = { module: coreLib.handle, token: method.token, sig: method.sig, isStatic: true, declaringModule: coreLib.handle, declaringType: token(Table.TypeDef, typeRid) };
    const value = await this.funcEval().call(threadId, ref, undefined, [], 'asking the runtime for its Edit and Continue capabilities');
    if (value?.str === undefined) throw new Error('GetCapabilities answered no text');
    return value.str.split(/\s+/).filter(Boolean);
  }

  private requireNative(): Native {
    const native = this.native();
    if (!native) throw new DebugError('INVALID_STATE', 'the .NET program is not being debugged any more');
    return native;
  }
}

/** A frame's place in old code: the thread, the method's version and the IL offset it is at. */
function remapKey(threadId: number, module: number, token: number, version: number, ilOffset: number): string {
  return `${threadId}:${module}:${token}:${version}:${ilOffset}`;
}
