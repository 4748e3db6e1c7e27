/**
 * Live edit for Node.js: each edited file's scripts, in every isolate that loaded them, get their
 * new text through V8's LiveEdit (`Debugger.setScriptSource`). The edits go together or not at
 * all: when there are several, each is tried first (`dryRun`), and a refusal of any leaves the
 * program untouched. A change to the function the program is paused in is made by V8 running that
 * frame again from its start (`allowTopFrameEditing`), which the answer says. Then the paused
 * frames move to where V8 moved their code, and a compiled file's map is the new text's.
 */
import { basename, dirname } from 'node:path';
import type { LiveEditChange, LiveEditRequest, LiveEditResult } from '../../core/engine.js';
import { notLoadedError } from '../../core/liveEdit.js';
import type { FrameInfo } from '../../core/types.js';
import { refusalOf } from './editRefusals.js';
import type { TypeScriptRunner } from './launchPlan.js';
import type { NodeTarget } from './nodeTarget.js';
import { loadedMapOf, planEdit, scriptsOfFiles, type PlannedEdit } from './scriptEdits.js';
import { recompilerFor, type LaunchEnvironment, type Recompiler } from './tsRecompile.js';

/** How long the pause of a frame V8 runs again is waited for. */
const RESTART_PAUSE_MS = 5000;

export interface LiveEditHost {
  targets(): NodeTarget[];
  /** How the program runs TypeScript, when the engine launched it. */
  runner(): TypeScriptRunner | undefined;
  /** The debuggee's Node.js version (what tsx compiles for). */
  runtimeVersion(): Promise<string>;
  /** Where the engine launched the program, and its environment (what ts-node set itself up from). */
  launchEnvironment(): LaunchEnvironment | undefined;
}

export class NodeLiveEdit {
  private readonly recompilers = new Map<string, Promise<Recompiler | undefined>>();

  constructor(private readonly host: LiveEditHost) {}

  async apply(request: LiveEditRequest): Promise<LiveEditResult> {
    const targets = this.host.targets().filter((t) => !t.cdp.closed);
    const scripts = await scriptsOfFiles(targets, request.files);
    const notLoaded = (request.files ?? []).filter((f) => !scripts.some((s) => s.file === f));
    if (notLoaded.length) throw notLoadedError(notLoaded);
    const sources = { runner: this.host.runner(), recompiler: (runner: TypeScriptRunner, file: string) => this.recompiler(runner, file) };
    const outcomes = await Promise.all(scripts.map((s) => planEdit(s, sources)));
    const edits = outcomes.filter((o): o is PlannedEdit => 'next' in o);
    const refused = outcomes.filter((o): o is LiveEditChange => !('next' in o) && o.status === 'refused');
    // One script needs no dry run: V8 refuses an edit whole. Several are tried first, so that none is applied when one would be refused.
    if (edits.length > 1) {
      for (const edit of edits) {
        const refusal = await this.tryEdit(edit);
        if (refusal) refused.push(refusal);
      }
    } else for (const edit of edits) edit.restartTopFrame = topFrameChanged(edit);
    const changes = new Map<string, LiveEditChange>();
    // Unchanged files are told only when asked about: the others merely had a recent time on disk.
    if (request.files) for (const o of outcomes) if (!('next' in o) && o.status === 'unchanged') changes.set(o.file, o);
    if (refused.length) {
      this.refuseAll(edits, refused[0], changes);
      for (const r of refused) changes.set(r.file, r);
      return { changes: [...changes.values()], staleFrames: [], notes: [] };
    }
    const notes = await this.commit(edits, changes);
    return { changes: [...changes.values()], staleFrames: [], notes };
  }

  /** Releases the compilers (esbuild's service process). */
  async dispose(): Promise<void> {
    const all = await Promise.all(this.recompilers.values());
    await Promise.all(all.map((r) => r?.dispose().catch(() => undefined)));
  }

  /**
   * V8's dry run. A change to a running function may still go when the isolate is paused in it on
   * top of the stack: V8 then runs that frame again, which it does even in a dry run, so that is
   * left to the commit (which goes first, and alone decides).
   */
  private async tryEdit(edit: PlannedEdit): Promise<LiveEditChange | undefined> {
    const { target, script } = edit;
    const answer = await target.editScript(script.scriptId, edit.next, { dryRun: true, restartTopFrame: false });
    if (answer.status === 'Ok') return undefined;
    if (answer.status === 'BlockedByActiveFunction' && topFrameChanged(edit)) {
      edit.restartTopFrame = true;
      return undefined;
    }
    const running = target.paused ? await this.changedOnStack(edit) : [];
    return { file: edit.file, status: 'refused', items: edit.items, ...refusalOf(answer, running, edit.compiled) };
  }

  /** Edits V8 may answer with a frame restart go first: a refusal then leaves the rest unapplied. */
  private async commit(edits: PlannedEdit[], changes: Map<string, LiveEditChange>): Promise<string[]> {
    const notes: string[] = [];
    const ordered = [...edits].sort((a, b) => Number(b.restartTopFrame) - Number(a.restartTopFrame));
    const moved = new Set<NodeTarget>();
    for (const [i, edit] of ordered.entries()) {
      const { target, script } = edit;
      const top = edit.restartTopFrame ? (await target.stackTrace(0, 1)).frames[0] : undefined;
      const pause = edit.restartTopFrame ? target.nextPause(RESTART_PAUSE_MS) : undefined;
      const answer = await target.editScript(script.scriptId, edit.next, { dryRun: false, restartTopFrame: edit.restartTopFrame });
      if (answer.status !== 'Ok') {
        pause?.cancel();
        const refusal = { file: edit.file, status: 'refused' as const, items: edit.items, ...refusalOf(answer, target.paused ? await this.changedOnStack(edit) : [], edit.compiled) };
        if (i === 0) return this.refuseAll(ordered, refusal, changes);
        changes.set(edit.file, refusal);
        const applied = [...changes.values()].filter((c) => c.status === 'applied').map((c) => basename(c.file));
        notes.push(`${applied.join(', ')} ${applied.length === 1 ? 'was' : 'were'} applied before V8 refused ${basename(edit.file)}.`);
        continue;
      }
      target.scripts.edited(script.scriptId, edit.map ? await loadedMapOf(edit.map, script.url) : undefined);
      const previous = changes.get(edit.file);
      changes.set(edit.file, { file: edit.file, status: 'applied', items: previous?.status === 'applied' ? previous.items : edit.items });
      if (top && pause) {
        const where = top.file ? ` (${basename(top.file)}:${top.line})` : '';
        notes.push((await pause.paused) ? `Restarted frame #0 ${top.name}${where}: V8 runs it again from its start with the new code.` : `V8 restarted frame #0 ${top.name}${where}, but its pause did not come within ${RESTART_PAUSE_MS / 1000} s.`);
      } else if (target.paused) moved.add(target);
    }
    for (const target of moved) await target.followEdit();
    return notes;
  }

  /** One edit was refused before any was applied: none is. */
  private refuseAll(edits: PlannedEdit[], refusal: LiveEditChange, changes: Map<string, LiveEditChange>): string[] {
    for (const edit of edits) {
      changes.set(edit.file, { file: edit.file, status: 'refused', items: edit.items, reason: `not applied: the edit of ${basename(refusal.file)} was refused, and edits are applied together or not at all`, nextStep: refusal.nextStep });
    }
    changes.set(refusal.file, refusal);
    return [];
  }

  /** The changed functions the paused isolate is running (in its top `levels` frames), by their frame names. */
  private async changedOnStack(edit: PlannedEdit, levels = 64): Promise<string[]> {
    const changed = new Set(edit.items.map((item) => item.replace(/ \((function|class) body\)$/, '').split('.').pop()!));
    const { frames } = await edit.target.stackTrace(0, levels).catch(() => ({ frames: [] as FrameInfo[] }));
    return [...new Set(frames.filter((f) => changed.has(f.name)).map((f) => `${f.name}${f.file ? ` (${basename(f.file)}:${f.line})` : ''}`))];
  }

  private recompiler(runner: TypeScriptRunner, file: string): Promise<Recompiler | undefined> {
    const key = `${runner}\n${dirname(file)}`;
    let made = this.recompilers.get(key);
    if (!made) {
      made = this.host.runtimeVersion().then((version) => recompilerFor(runner, file, version, this.host.launchEnvironment()));
      this.recompilers.set(key, made);
    }
    return made;
  }
}

/** The isolate is paused in a function of this script that the edit changes: V8 can only make that change by running the frame again. */
function topFrameChanged(edit: PlannedEdit): boolean {
  const top = edit.target.topFunction;
  return !!top && top.scriptId === edit.script.scriptId && edit.changesFunctionAt(top.lineNumber, top.columnNumber ?? 0);
}
