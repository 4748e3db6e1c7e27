/**
 * Makes parts of the Windows test bed ahead of a run: `node test/windows/support/prepare.mjs
 * <part>...`, parts `node` (Windows node.exe), `prefix` (the Wine prefix) and `fixture:<name>` (a .NET
 * fixture published for win-x64). .ci/run prepares the bed this way in the background while the Linux
 * tests run, so that the Windows story at the end only runs; the story's own prepareBed() then finds
 * every part made. Needs dist/ built (bed.mjs reads it).
 */
import { ensurePrefix, nodeExe, publishFixture } from './bed.mjs';

const parts = {
  node: () => nodeExe(),
  prefix: () => ensurePrefix(),
};

for (const part of process.argv.slice(2)) {
  const started = Date.now();
  const fixture = /^fixture:(.+)$/.exec(part)?.[1];
  const make = fixture ? () => publishFixture(fixture) : parts[part];
  if (!make) throw new Error(`no bed part "${part}": node, prefix or fixture:<name>`);
  make();
  console.log(`windows bed: ${part} ready in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}
