/** `debugbridge doctor`: which runtimes and adapters work here, and the exact fix for each that does not. */
import { fileURLToPath } from 'node:url';
import { codeCacheState } from './codeCache.js';
import { BUILT_IN_LANGUAGES, EngineRegistry } from './core/engineRegistry.js';
import type { Availability } from './core/types.js';

/** The bundle the server loads its tools and engines from (scripts/bundle-cli.mjs). */
const LAZY_BUNDLE = fileURLToPath(new URL('./lazy.cjs', import.meta.url));
const CODE_CACHE = {
  used: 'used (the server loads its tools precompiled)',
  rejected: 'not used: written by another Node.js or V8 (the server compiles its tools at each start; `npm run build` with this Node.js writes one)',
  missing: 'none (run `npm run build`)',
};

export interface DoctorRow {
  language: string;
  availability: Availability;
}

export async function checkLanguages(detect: (language: string) => Promise<Availability> = (l) => new EngineRegistry().detect(l)): Promise<DoctorRow[]> {
  return Promise.all(BUILT_IN_LANGUAGES.map(async (language) => ({ language, availability: await detect(language) })));
}

export async function runDoctor(args: string[] = [], out: NodeJS.WritableStream = process.stdout): Promise<number> {
  if (args.length) {
    if (args.length !== 2 || args[0] !== '--target') {
      process.stderr.write('usage: debugbridge doctor [--target NAME]\n');
      return 2;
    }
    const { runTargetDoctor } = await import('./remote/targetDoctor.js');
    return runTargetDoctor(args[1], out);
  }
  out.write(`debugbridge doctor — Node ${process.version} on ${process.platform}-${process.arch}\n`);
  out.write(`start-up code cache: ${CODE_CACHE[codeCacheState(LAZY_BUNDLE)]}\n\n`);
  return writeRows(await checkLanguages(), out, 'here');
}

/** One line a language, the fix under each missing one; exit code 1 when any is missing. */
export function writeRows(rows: DoctorRow[], out: NodeJS.WritableStream, where: string): number {
  for (const { language, availability: a } of rows) {
    if (a.available) {
      out.write(`  ok       ${language.padEnd(7)} ${a.version ?? ''}${a.detail ? `  (${a.detail})` : ''}\n`);
    } else {
      out.write(`  MISSING  ${language.padEnd(7)} ${a.reason ?? ''}\n`);
      if (a.install) out.write(`           fix: ${a.install}\n`);
    }
  }
  const missing = rows.filter((r) => !r.availability.available).length;
  out.write(missing ? `\n${missing} of ${rows.length} languages unavailable ${where}; the others work.\n` : `\nAll languages work ${where}.\n`);
  return missing ? 1 : 0;
}
