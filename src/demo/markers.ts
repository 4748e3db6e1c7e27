import { readFileSync } from 'node:fs';

/** The 1-based line carrying a marker such as `DEMO:total` or `BP:only`: samples name lines, not numbers. */
export function markerLine(file: string, marker: string): number {
  const lines = readFileSync(file, 'utf8').split(/\r?\n/);
  const pattern = new RegExp(`${marker.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`);
  const index = lines.findIndex((l) => pattern.test(l));
  if (index < 0) throw new Error(`marker ${marker} not found in ${file}`);
  return index + 1;
}
