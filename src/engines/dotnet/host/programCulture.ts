/**
 * The culture the program formats numbers with, as .NET on Unix picks its CurrentCulture from the
 * environment: invariant under DOTNET_SYSTEM_GLOBALIZATION_INVARIANT, or when the locale (LC_ALL,
 * else LC_MESSAGES, else LANG: ICU's order) is unset, empty, C or POSIX; else an ICU culture, whose infinity
 * is "∞" (.NET 5+ reads it from ICU). Read once per session from the process's environment.
 */
import { readFileSync } from 'node:fs';
import { useInfinitySymbol } from '../expressions/csFormat.js';

/** /proc/<pid>/environ (Linux): the environment the program started with; undefined where unreadable. */
function environmentOf(pid: number): Map<string, string> | undefined {
  try {
    const pairs = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
    return new Map(pairs.map((p) => [p.slice(0, p.indexOf('=')), p.slice(p.indexOf('=') + 1)]));
  } catch {
    return undefined;
  }
}

export function infinitySymbolOf(env: Map<string, string>): string {
  if (/^(1|true)$/i.test(env.get('DOTNET_SYSTEM_GLOBALIZATION_INVARIANT') ?? '')) return 'Infinity';
  // The first one set wins, even set empty (seen: LC_ALL= with LANG=en_US.UTF-8 is invariant).
  const locale = ['LC_ALL', 'LC_MESSAGES', 'LANG'].map((name) => env.get(name)).find((v) => v !== undefined) ?? '';
  return locale === '' || /^(C|POSIX)([.@]|$)/.test(locale) ? 'Infinity' : '∞';
}

/** Numbers are shown and concatenated with the program's infinity symbol from now on (this host serves one program). */
export function followProgramCulture(pid: number): void {
  const env = environmentOf(pid);
  if (env) useInfinitySymbol(infinitySymbolOf(env));
}
