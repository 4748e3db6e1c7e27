/**
 * The interpreter a search found, remembered across servers (in the state folder): a fresh
 * server's first launch starts from it at once instead of waiting for the search. The search costs
 * little with a plain `python3`, but a pyenv shim first on PATH that lacks debugpy takes ~0.5 s to
 * fail (seconds on a busy machine), and every candidate before the winner must fail first. What
 * the answer depends on is its key: the candidates, PATH, the working folder (pyenv's local
 * version) and the variables that choose an environment.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { defaultStateDir } from '../../core/sessionStore.js';
import type { PythonInterpreter } from './interpreter.js';

/** Answers kept: one per key, the most recent few. */
const KEEP = 8;

type Memory = { key: string; interpreter: PythonInterpreter }[];

const file = () => join(defaultStateDir(), 'python-interpreters.json');

export function rememberedKey(candidates: string[]): string {
  const { PATH, PYENV_VERSION, VIRTUAL_ENV, CONDA_PREFIX } = process.env;
  return JSON.stringify([candidates, PATH, process.cwd(), PYENV_VERSION, VIRTUAL_ENV, CONDA_PREFIX]);
}

export function recall(key: string): PythonInterpreter | undefined {
  return read().find((entry) => entry.key === key)?.interpreter;
}

/** Keeps `interpreter` as the answer for `key`, or forgets the key's answer (undefined). */
export function remember(key: string, interpreter: PythonInterpreter | undefined): void {
  const kept = read().filter((entry) => entry.key !== key);
  if (interpreter) kept.unshift({ key, interpreter });
  try {
    mkdirSync(defaultStateDir(), { recursive: true });
    const temporary = `${file()}.${process.pid}`;
    writeFileSync(temporary, JSON.stringify(kept.slice(0, KEEP)));
    renameSync(temporary, file());
  } catch {
    // Not kept: the next server searches again.
  }
}

function read(): Memory {
  try {
    const memory = JSON.parse(readFileSync(file(), 'utf8')) as unknown;
    return Array.isArray(memory) ? (memory as Memory).filter((entry) => typeof entry?.key === 'string' && typeof entry.interpreter?.executable === 'string') : [];
  } catch {
    return [];
  }
}
