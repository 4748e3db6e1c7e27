/**
 * `session_apply_changes` for .NET: the debugger host stops the program if it runs and reads what
 * Roslyn needs (built sources of edited files, the runtime's capabilities, active statements), the
 * server's worker computes the deltas or refuses with Roslyn's diagnostics, the host applies them
 * and moves the symbols, the worker commits (or forgets) the update, and a program stopped for the
 * edit runs on. The answer says, per file, what was applied or why not, and which frames still run
 * old code.
 */
import type { LiveEditChange, LiveEditRequest, LiveEditResult } from '../../core/engine.js';
import type { HostApi, HostMethod } from './hostProtocol.js';
import type { EncDiagnostic, UpdateResult } from './worker/encProtocol.js';
import type { EncWorker } from './worker/encWorker.js';

type HostRequest = <M extends HostMethod>(method: M, args: Parameters<HostApi[M]>, timeoutMs?: number) => Promise<Awaited<ReturnType<HostApi[M]>>>;

const MAX_REASONS = 3;
/** Roslyn's first update compiles the whole program (and a cold worker loads Roslyn first). */
const UPDATE_TIMEOUT_MS = 180_000;

export async function applyDotnetChanges(
  host: HostRequest,
  worker: EncWorker,
  dotnet: string,
  session: string,
  request: LiveEditRequest,
): Promise<LiveEditResult> {
  const prepared = await host('prepareEdit', [request.files], 60_000);
  try {
    const update = await worker.update(
      dotnet,
      { session, modules: prepared.modules, capabilities: prepared.capabilities, activeStatements: prepared.activeStatements, files: request.files },
      UPDATE_TIMEOUT_MS,
    );
    if (update.status !== 'ready') return answer(update, request, prepared.notes);
    let applied;
    try {
      applied = await host('applyEdit', [update.updates], 60_000);
    } catch (e) {
      await worker.discard(dotnet, session).catch(() => undefined);
      throw e;
    }
    await worker.commit(dotnet, session);
    const notes = [...prepared.notes];
    for (const frame of applied.staleFrames) {
      const where = frame.file ? ` (${frame.file.split(/[\\/]/).pop()}:${frame.line})` : '';
      notes.push(
        frame.remapsAtNextStatement
          ? `thread ${frame.threadId}: ${frame.name}${where} moves to the new code at its next statement`
          : `thread ${frame.threadId}: ${frame.name}${where} runs its old code until it returns`,
      );
    }
    const staleFrames = applied.staleFrames.filter((f) => !f.remapsAtNextStatement).map(({ threadId, name, file, line }) => ({ threadId, name, file, line }));
    return answer(update, request, notes, applied.items, staleFrames);
  } finally {
    await host('endEdit', []).catch(() => undefined);
  }
}

function answer(
  update: UpdateResult,
  request: LiveEditRequest,
  notes: string[],
  items: { file: string; item: string }[] = [],
  staleFrames: LiveEditResult['staleFrames'] = [],
): LiveEditResult {
  const errors = update.diagnostics.filter((d) => d.severity === 'error');
  const changes: LiveEditChange[] = update.changedFiles.map((file) => {
    if (update.status === 'ready') return { file, status: 'applied', items: items.filter((i) => i.file === file).map((i) => i.item) };
    if (update.status === 'none') return { file, status: 'unchanged', items: [] };
    return refusal(file, errors);
  });
  for (const file of request.files ?? []) {
    if (!changes.some((c) => c.file === file)) changes.push({ file, status: 'unchanged', items: [] });
  }
  for (const warning of update.diagnostics.filter((d) => d.severity === 'warning')) notes.push(`${describe(warning)}`);
  if (update.status === 'none' && update.changedFiles.length) notes.push('the edit changes nothing the program runs (comments or whitespace): nothing to apply');
  else if (update.status === 'none' && changes.length === 0) notes.push('no source file of the program differs from what it runs');
  return { changes, staleFrames, notes: [...update.notes, ...notes] };
}

/** A file of an update Roslyn refused: its own errors, else those of the file that blocked it. */
function refusal(file: string, errors: EncDiagnostic[]): LiveEditChange {
  const own = errors.filter((d) => d.file === file);
  const shown = (own.length ? own : errors).slice(0, MAX_REASONS);
  const rude = shown.some((d) => d.rudeEdit);
  const elsewhere = own.length === 0 && shown[0]?.file ? ` (in ${shown[0].file.split(/[\\/]/).pop()})` : '';
  return {
    file,
    status: 'refused',
    items: [],
    reason: shown.length ? `${shown.map(describe).join('; ')}${elsewhere}` : 'Roslyn could not compile the change',
    nextStep: rude
      ? 'this edit needs a restart: session_restart runs the edited program (or undo the edit and apply again)'
      : 'fix the compile error, then session_apply_changes again; the program runs the code it had',
  };
}

function describe(d: EncDiagnostic): string {
  const where = d.file && d.line ? ` at ${d.file.split(/[\\/]/).pop()}:${d.line}` : '';
  return `${d.id}: ${d.message}${where}`;
}
