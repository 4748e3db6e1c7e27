/**
 * Loaded ahead of tsx when debugbridge runs a TypeScript program through it: tsx's esbuild keeps the
 * compiled JavaScript on separate lines. tsx minifies whitespace, which writes each module on one
 * line, and V8's LiveEdit cannot tell the functions of a changed line that long apart (see
 * v8LineDiff.ts), so no edit of such a program could be applied. The code is the same, its source
 * map as exact. tsx reaches esbuild two ways: `require` (its CommonJS hook, in the main thread),
 * given a changed module object in require's cache, and `import` (its ES module hooks, in the loader
 * thread), given a small ES module in esbuild's place by the `load` hook below, which this module
 * registers ahead of tsx's. esbuild's version is marked so that tsx's cache keeps these apart from
 * its one-line entries. When tsx or esbuild is not where the query says, nothing changes.
 */
import * as nodeModule from 'node:module';
import { pathToFileURL } from 'node:url';

const query = new URL(import.meta.url).searchParams;
const tsxPackage = query.get('tsx');

interface Esbuild {
  version: string;
  transform(input: string, options?: object): Promise<unknown>;
  transformSync(input: string, options?: object): unknown;
}

function keepLines(load: NodeJS.Require): void {
  const path = load.resolve('esbuild');
  const esbuild = load('esbuild') as Esbuild;
  const cached = load.cache[path];
  if (!cached) return;
  const lines = (options?: object) => ({ ...options, minifyWhitespace: false });
  cached.exports = {
    ...esbuild,
    version: `${esbuild.version}+lines`,
    transform: (input: string, options?: object) => esbuild.transform(input, lines(options)),
    transformSync: (input: string, options?: object) => esbuild.transformSync(input, lines(options)),
  };
}

/** The ES module tsx imports instead of esbuild: the same esbuild, its transforms keeping lines. */
function linesModule(esbuildPath: string): string {
  return [
    `import { createRequire } from 'node:module';`,
    `const esbuild = createRequire(${JSON.stringify(esbuildPath)})(${JSON.stringify(esbuildPath)});`,
    `const lines = (options) => ({ ...options, minifyWhitespace: false });`,
    `export const version = esbuild.version + '+lines';`,
    `export const transform = (input, options) => esbuild.transform(input, lines(options));`,
    `export const transformSync = (input, options) => esbuild.transformSync(input, lines(options));`,
    `export default { ...esbuild, version, transform, transformSync };`,
  ].join('\n');
}

let esbuildUrl: string | undefined;
let esbuildPath: string | undefined;
if (tsxPackage) {
  try {
    const load = nodeModule.createRequire(tsxPackage);
    esbuildPath = load.resolve('esbuild');
    esbuildUrl = pathToFileURL(esbuildPath).href;
    if (!query.has('thread')) keepLines(load);
  } catch {
    // tsx compiles as it always does.
  }
  if (esbuildUrl && !query.has('thread') && typeof nodeModule.register === 'function') nodeModule.register(`${import.meta.url}&thread=loader`);
}

/** The loader hook: esbuild, imported, is the module above. */
export async function load(url: string, context: object, nextLoad: (url: string, context: object) => Promise<object>): Promise<object> {
  if (url === esbuildUrl && esbuildPath) return { format: 'module', source: linesModule(esbuildPath), shortCircuit: true };
  return nextLoad(url, context);
}
