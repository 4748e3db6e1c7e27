/**
 * The stack the failure judge reads: the exception's way through the thread's frames, library
 * frames included. V8 and the .NET host list every frame. debugpy with Just My Code lists only the
 * user's: the frames the exception's traceback went through (each at the line it passed), then the
 * current frame, marked "(Current frame)" when traceback frames come first. The frames below the
 * current one are read in the program: pydevd evaluates on the stopped thread itself, so the
 * evaluation's own frames lead, past pydevd's, to the thread's real frames.
 */
import type { Engine } from '../core/engine.js';
import type { FrameInfo } from '../core/types.js';

const FRAMES = 60;
const CURRENT_FRAME = / \(Current frame\)$/;

/** Python: [file, line, function] of each frame from the evaluation's down, as JSON. */
const PYTHON_WALK =
  "__import__('json').dumps([(f.f_code.co_filename, n, f.f_code.co_name) for f, n in __import__('traceback').walk_stack(__import__('sys')._getframe())][:200])";
/** pydevd's and debugpy's own files. */
const DEBUGGER_FILE = /[\\/](pydevd|_pydevd_bundle|_pydev_bundle|debugpy)[\\/]|[\\/]pydevd\.py$/;

export interface JudgedStack {
  /** What the judge reads. */
  frames: FrameInfo[];
  /** What inspect_stack lists (the engine's own frames), for the stop's current frame. */
  listed: FrameInfo[];
}

export async function judgedStack(engine: Engine, language: string, threadId: number): Promise<JudgedStack> {
  const { frames: listed } = await engine.stackTrace(threadId, 0, FRAMES);
  if (language !== 'python' || !listed.length) return { frames: listed, listed };
  const current = Math.max(0, listed.findIndex((f) => CURRENT_FRAME.test(f.name)));
  const real = await pythonThreadStack(engine, listed[current].id).catch(() => undefined);
  // The evaluation's thread must be where debugpy says it is, else the listed frames are all there is.
  if (!real?.length || real[0].file !== listed[current].file) return { frames: listed, listed };
  return { frames: [...listed.slice(0, current + 1), ...real.slice(1)], listed };
}

async function pythonThreadStack(engine: Engine, frameId: number): Promise<FrameInfo[] | undefined> {
  const { value } = await engine.evaluate(PYTHON_WALK, frameId, 'watch');
  const rows = JSON.parse(unquotePython(value)) as [string, number, string][];
  // The evaluation's frame, then pydevd's, then the thread's (whose bottom is debugpy's again).
  const pydevd = rows.findIndex(([file]) => DEBUGGER_FILE.test(file));
  const start = pydevd < 0 ? -1 : rows.findIndex(([file], i) => i > pydevd && !DEBUGGER_FILE.test(file));
  if (start < 0) return undefined;
  return rows.slice(start, start + FRAMES).map(([file, line, name]) => ({ id: 0, name, file, line, column: 1 }));
}

/** A Python str's repr, of ASCII text (json.dumps escapes the rest), back to the text. */
function unquotePython(repr: string): string {
  const quote = repr[0];
  if ((quote !== "'" && quote !== '"') || repr.at(-1) !== quote) throw new Error('not a string');
  return repr.slice(1, -1).replace(/\\(.)/g, '$1');
}
