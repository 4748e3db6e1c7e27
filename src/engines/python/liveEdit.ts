/**
 * Live edit for Python: the helper module (liveEditHelper.ts) is executed in the debuggee once per
 * session, as the program starts, through debugpy's `evaluate` without a frame (pydevd runs it on
 * whichever thread takes it first, its own or a stopped one, so it works whether the program is
 * stopped or running); each apply calls it the same way and reads its answer back.
 */
import type { LiveEditRequest, LiveEditResult } from '../../core/engine.js';
import { DebugError } from '../../core/errors.js';
import { notLoadedError } from '../../core/liveEdit.js';
import type { ThreadInfo } from '../../core/types.js';
import { DapRequestError } from '../../dap/dapRequestError.js';
import type { DebugpyRequests } from './debugpyRequests.js';
import { ANSWER_MARK, LIVE_EDIT_HELPER, LIVE_EDIT_MODULE } from './liveEditHelper.js';

type HelperAnswer =
  | { notLoaded: string[] }
  | { error: string }
  | (Omit<LiveEditResult, 'staleFrames'> & { staleFrames: { thread: string; name: string; file?: string; line?: number }[] });

const MODULE = `__import__('sys').modules['${LIVE_EDIT_MODULE}']`;

export class PythonLiveEdit {
  private installed?: Promise<void>;

  constructor(
    private readonly dap: DebugpyRequests,
    private readonly threads: () => Promise<ThreadInfo[]>,
  ) {}

  /**
   * Puts the helper in the program, once: it keeps the text of the program's modules as they load
   * from now on, and of `program` (the main file, which no import loads).
   */
  install(program?: string): Promise<void> {
    this.installed ??= this.run(
      `exec(__import__('base64').b64decode('${Buffer.from(LIVE_EDIT_HELPER).toString('base64')}').decode('utf-8'), ` +
        `__import__('sys').modules.setdefault('${LIVE_EDIT_MODULE}', __import__('types').ModuleType('${LIVE_EDIT_MODULE}')).__dict__) or ` +
        `${MODULE}._install(${pyString(JSON.stringify(program ? [program] : []))})`,
    ).then((failure) => {
      if (failure) throw helperFailure('The live edit helper could not be put in the program', failure);
    });
    return this.installed;
  }

  async apply(request: LiveEditRequest): Promise<LiveEditResult> {
    await this.install();
    const failure = await this.run(`${MODULE}.answer(${pyString(JSON.stringify(request.files ?? null))})`);
    const answer = failure && answerOf(failure);
    if (!answer) throw helperFailure('The live edit helper did not answer', failure || 'no answer');
    if ('notLoaded' in answer) throw notLoadedError(answer.notLoaded);
    if ('error' in answer) throw new DebugError('INTERNAL', `Applying the edits failed in the program: ${answer.error}`, 'session_restart runs the program with the edits.');
    const threads = answer.staleFrames.length ? await this.threads().catch(() => []) : [];
    const staleFrames = answer.staleFrames.map(({ thread, ...frame }) => ({ threadId: threads.find((t) => t.name === thread)?.id ?? 0, ...frame }));
    return { ...answer, staleFrames };
  }

  /** Executes a statement in the debuggee; answers what it raised (the helper answers that way), or '' when it raised nothing. */
  private async run(statement: string): Promise<string> {
    try {
      await this.dap.request('evaluate', { expression: statement, context: 'watch' });
      return '';
    } catch (e) {
      if (e instanceof DapRequestError && e.failure === 'rejected') return e.adapterMessage ?? e.message;
      if (e instanceof DapRequestError && e.failure === 'closed') throw programGone();
      throw e;
    }
  }
}

/** What debugpy's adapter answers a request whose program went away meanwhile. */
const PROGRAM_GONE = /\bdisconnected unexpectedly\b|^No more messages/;

function helperFailure(what: string, failure: string): DebugError {
  if (PROGRAM_GONE.test(failure)) return programGone();
  return new DebugError('INTERNAL', `${what}: ${failure}`, 'session_restart runs the program with the edits.');
}

function programGone(): DebugError {
  return new DebugError('INVALID_STATE', 'The program ended before the edits were applied.', 'session_restart runs the program with the edits.');
}

function answerOf(raised: string): HelperAnswer | undefined {
  const at = raised.lastIndexOf(ANSWER_MARK);
  if (at < 0) return undefined;
  const encoded = /^[A-Za-z0-9+/=]*/.exec(raised.slice(at + ANSWER_MARK.length))![0];
  return JSON.parse(Buffer.from(encoded, 'base64').toString('utf8')) as HelperAnswer;
}

/** A Python string literal of `text` (JSON's escapes are Python's). */
function pyString(text: string): string {
  return JSON.stringify(text);
}
