/**
 * Finds a Python interpreter that can run debugpy: the `pythonPath` option, then
 * DEBUGBRIDGE_PYTHON, then the usual names and places. The first that imports debugpy wins.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { clientCalls } from '../../core/clientCalls.js';
import { DebugError } from '../../core/errors.js';
import { startAtLowPriority } from '../../core/processPriority.js';
import { whenQuiet } from './callsQuiet.js';
import { recall, remember, rememberedKey } from './rememberedInterpreter.js';

export interface PythonInterpreter {
  /** The real interpreter (`sys.executable`), not a shim that execs it. */
  executable: string;
  pythonVersion: string;
  debugpyVersion: string;
  /** Where debugpy was imported from (a remembered interpreter still has it). */
  debugpyFile?: string;
}

interface ProbeFailure {
  candidate: string;
  reason: string;
}

export const INSTALL_DEBUGPY = 'apt-get install python3-debugpy  (or: python3 -m pip install debugpy)';

const PROBE = [
  'import json, platform, sys',
  'info = {"executable": sys.executable, "python": platform.python_version()}',
  'try:',
  '    import debugpy',
  '    info["debugpy"] = debugpy.__version__',
  '    info["debugpyFile"] = debugpy.__file__',
  'except Exception as e:',
  '    info["error"] = "%s: %s" % (type(e).__name__, e)',
  'print(json.dumps(info))',
].join('\n');

const COMMON_CANDIDATES =
  process.platform === 'win32'
    ? ['python', 'py', 'python3']
    : ['python3', 'python', '/usr/bin/python3', '/usr/local/bin/python3', '/opt/homebrew/bin/python3', '/usr/bin/python'];

const found = new Map<string, Promise<PythonInterpreter>>();

/** The candidates in order: an explicit choice is the only one tried. */
export function interpreterCandidates(options: Record<string, unknown> = {}): string[] {
  const explicit = typeof options.pythonPath === 'string' && options.pythonPath ? options.pythonPath : undefined;
  if (explicit) return [explicit];
  const fromEnv = process.env.DEBUGBRIDGE_PYTHON;
  if (fromEnv) return [fromEnv];
  return COMMON_CANDIDATES;
}

/** Options that name the same candidates share one interpreter (and one spare adapter). */
export function interpreterKey(options: Record<string, unknown> = {}): string {
  return interpreterCandidates(options).join('\0');
}

/**
 * Resolves the interpreter for these options; successes are cached, failures are retried next time.
 * A fresh server answers with what the last search for the same key found (rememberedInterpreter.ts)
 * when that interpreter is still there, and searches again once the calls pause: a different answer
 * serves the next launch.
 */
export function findInterpreter(options: Record<string, unknown> = {}): Promise<PythonInterpreter> {
  const candidates = interpreterCandidates(options);
  const key = interpreterKey(options);
  let pending = found.get(key);
  if (!pending) {
    const memoryKey = rememberedKey(candidates);
    const remembered = recall(memoryKey);
    if (remembered && [remembered.executable, remembered.debugpyFile ?? ''].every((path) => existsSync(path))) {
      pending = Promise.resolve(remembered);
      const check = () => searchAndRemember(candidates, memoryKey, true).then((fresh) => found.set(key, Promise.resolve(fresh)), () => found.delete(key));
      // Probing takes the CPU: once the client's calls and the sessions' requests have paused.
      clientCalls.whenQuiet(`interpreter ${key}`, () => whenQuiet(`interpreter ${key}`, () => void check()));
    } else {
      pending = searchAndRemember(candidates, memoryKey);
      pending.catch(() => found.delete(key));
    }
    found.set(key, pending);
  }
  return pending;
}

function searchAndRemember(candidates: string[], memoryKey: string, lowPriority = false): Promise<PythonInterpreter> {
  const searching = search(candidates, lowPriority);
  searching.then(
    (interpreter) => remember(memoryKey, interpreter),
    () => remember(memoryKey, undefined),
  );
  return searching;
}

async function search(candidates: string[], lowPriority: boolean): Promise<PythonInterpreter> {
  // Probed side by side (a pyenv shim alone takes most of a second); the earliest candidate in
  // order that works wins as soon as every one before it has failed.
  const probes = candidates.map((candidate) => probe(candidate, lowPriority));
  const failures: ProbeFailure[] = [];
  for (const pending of probes) {
    const result = await pending;
    if ('executable' in result) return result;
    failures.push(result);
  }
  throw new DebugError(
    'ENGINE_UNAVAILABLE',
    `No Python interpreter with debugpy found. Tried: ${failures.map((f) => `${f.candidate} (${f.reason})`).join('; ')}.`,
    `Install debugpy: ${INSTALL_DEBUGPY}; or point the pythonPath option / DEBUGBRIDGE_PYTHON at an interpreter that has it.`,
    { tried: failures },
  );
}

function probe(candidate: string, lowPriority: boolean): Promise<PythonInterpreter | ProbeFailure> {
  return new Promise((resolve) => {
    const start = (run: () => unknown) => (lowPriority ? startAtLowPriority(run) : run());
    start(() => execFile(candidate, ['-c', PROBE], { timeout: 15_000, windowsHide: true }, (error, stdout, stderr) => {
      if (error && !stdout) {
        const code = (error as NodeJS.ErrnoException).code;
        const reason = code === 'ENOENT' ? 'not found' : (stderr.trim().split('\n').pop() ?? error.message);
        return resolve({ candidate, reason });
      }
      try {
        const info = JSON.parse(stdout) as { executable: string; python: string; debugpy?: string; debugpyFile?: string; error?: string };
        if (!info.debugpy) return resolve({ candidate, reason: `Python ${info.python}, no debugpy: ${info.error}` });
        resolve({ executable: info.executable || candidate, pythonVersion: info.python, debugpyVersion: info.debugpy, debugpyFile: info.debugpyFile });
      } catch {
        resolve({ candidate, reason: `unexpected answer: ${stdout.slice(0, 200)}` });
      }
    }));
  });
}
