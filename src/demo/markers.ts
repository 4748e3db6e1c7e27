import { readFileSync } from 'node:fs';

/** The 1-based line of the comment marker `name` (e.g. `DEMO:total`) in a source file. */
export function markerLine(file: string, name: string): number {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const index = lines.findIndex((l) => new RegExp(`(#|//)\\s*${name}\\b`).test(l));
  if (index < 0) throw new Error(`marker ${name} not found in ${file}`);
  return index + 1;
}
