/** Files debugbridge writes for a test run (a launcher, a runner's settings): one per user and content, kept for the next run. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';

export function ownFile(name: string, content: string): string {
  const dir = join(tmpdir(), `debugbridge-${userInfo().uid >= 0 ? userInfo().uid : userInfo().username}`);
  const file = join(dir, name);
  if (!existsSync(file) || readFileSync(file, 'utf8') !== content) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileSync(file, content);
  }
  return file;
}
