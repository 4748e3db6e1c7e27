/**
 * Finds a Python interpreter that can run debugpy: the `pythonPath` option, then
 * DEBUGBRIDGE_PYTHON, then the usual names and places. The first that imports debugpy wins.
 */
import { execFile } from 'node:child_process';
import { DebugError } from '../../core/errors.js';

export interface PythonInterpreter {
  /** The real interpreter (`sys.executable`), not a shim that execs it. */
  executable: string;
  pythonVersion: string;
  debugpyVersion: string;
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

/** Resolves the interpreter for these options; successes are cached, failures are retried next time. */
export function findInterpreter(options: Record<string, unknown> = {}): Promise<PythonInterpreter> {
  const candidates = interpreterCandidates(options);
  const key = interpreterKey(options);
  let pending = found.get(key);
  if (!pending) {
    pending = search(candidates);
    pending.catch(() => found.delete(key));
    found.set(key, pending);
  }
  return pending;
}

async function search(candidates: string[]): Promise<PythonInterpreter> {
  // Probed side by side (a pyenv shim alone takes most of a second); the earliest candidate in
  // order that works wins as soon as every one before it has failed.
  const probes = candidates.map((candidate) => probe(candidate));
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

function probe(candidate: string): Promise<PythonInterpreter | ProbeFailure> {
  return new Promise((resolve) => {
    execFile(candidate, ['-c', PROBE], { timeout: 15_000, windowsHide: true }, (error, stdout, stderr) => {
      if (error && !stdout) {
        const code = (error as NodeJS.ErrnoException).code;
        const reason = code === 'ENOENT' ? 'not found' : (stderr.trim().split('\n').pop() ?? error.message);
        return resolve({ candidate, reason });
      }
      try {
        const info = JSON.parse(stdout) as { executable: string; python: string; debugpy?: string; error?: string };
        if (!info.debugpy) return resolve({ candidate, reason: `Python ${info.python}, no debugpy: ${info.error}` });
        resolve({ executable: info.executable || candidate, pythonVersion: info.python, debugpyVersion: info.debugpy });
      } catch {
        resolve({ candidate, reason: `unexpected answer: ${stdout.slice(0, 200)}` });
      }
    });
  });
}
