/** `debugbridge doctor`: which runtimes and adapters work here, and the exact fix for each that does not. */
import { BUILT_IN_LANGUAGES, EngineRegistry } from './core/engineRegistry.js';
import type { Availability } from './core/types.js';

export interface DoctorRow {
  language: string;
  availability: Availability;
}

export async function checkLanguages(registry = new EngineRegistry()): Promise<DoctorRow[]> {
  return Promise.all(BUILT_IN_LANGUAGES.map(async (language) => ({ language, availability: await registry.detect(language) })));
}

export async function runDoctor(out: NodeJS.WritableStream = process.stdout): Promise<number> {
  const rows = await checkLanguages();
  out.write(`debugbridge doctor — Node ${process.version} on ${process.platform}-${process.arch}\n\n`);
  for (const { language, availability: a } of rows) {
    if (a.available) {
      out.write(`  ok       ${language.padEnd(7)} ${a.version ?? ''}${a.detail ? `  (${a.detail})` : ''}\n`);
    } else {
      out.write(`  MISSING  ${language.padEnd(7)} ${a.reason ?? ''}\n`);
      if (a.install) out.write(`           fix: ${a.install}\n`);
    }
  }
  const missing = rows.filter((r) => !r.availability.available).length;
  out.write(missing ? `\n${missing} of ${rows.length} languages unavailable; the others work.\n` : '\nAll languages work here.\n');
  return missing ? 1 : 0;
}
