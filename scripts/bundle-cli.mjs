// Build step (`npm run build`, after tsc): the command's entry point and what it loads later, bundled.
//
// - dist/cli.cjs, the entry point, one CommonJS file: a server's first answers (initialize,
//   tools/list from the build-time catalog) need only it and the few modules it imports statically;
//   loaded as ES modules they cost Node.js its ES module loader and the eager namespaces of node:fs
//   and node:crypto, more than our own code. Bundled into one CommonJS file they load with require().
// - dist/lazy/, everything the entry point reaches by a dynamic import() (the MCP server with the
//   SDK and zod, the session manager, the engine registry and each engine, the commands): one ES
//   module build with code splitting, so loading the server's tools and the first engine reads a few
//   files instead of ~260 modules, and each module still exists once (one DebugError class for
//   all). What is imported dynamically stays a chunk of its own, loaded on first use: a .NET-only
//   user never loads the Python engine. The engine registry names its built-in engines by literal
//   import()s so this build sees them (src/core/engineRegistry.ts).
// - The .NET debugger host (src/engines/dotnet/host/hostMain.ts), a process of its own that a first
//   launch waits for: one CommonJS file too (dist/engines/dotnet/host/hostMain.cjs).
//
// tsc's dist/ files stay: dist/cli.js runs them unbundled, the debuggee-side helpers (preload.cjs,
// tsxLines.js, the reload watchdog) are started from them, and the tool catalog's fingerprint reads
// them. Every import.meta.url in a bundled module is the URL of its compiled file in dist/, so the
// paths a module builds from it are the ones tsc's file would build.
import { readFile } from 'node:fs/promises';
import { existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const lazy = join(dist, 'lazy');
const slashes = (path) => path.split(sep).join('/');
/** The compiled counterpart of a source file, as a path from `folder` in dist/ (forward slashes). */
const distPath = (sourceFile, folder) => slashes(relative(folder, join(dist, relative(src, sourceFile)))).replace(/\.ts$/, '.js');
/** A source file's own relative import (`./x.js`) as the .ts file it names. */
const sourceOf = (args) => join(args.resolveDir, args.path).replace(/\.js$/, '.ts');
/** The lazy build's name for an entry point: its path under src/, flat (`core/engineRegistry.ts` → `core-engineRegistry`). */
const lazyName = (sourceFile) => slashes(relative(src, sourceFile)).replace(/\.ts$/, '').replaceAll('/', '-');

/** import.meta.url, in a bundled module: the URL of the module's compiled file in dist/. */
const compiledUrls = (expression) => ({
  name: 'compiled-urls',
  setup(b) {
    b.onLoad({ filter: /\.ts$/ }, async (args) => ({
      contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', expression(args.path)),
      loader: 'ts',
    }));
  },
});

/** Static imports are bundled; a dynamic import() is external, to the file `dynamicTarget` names. */
const startPathOnly = (dynamicTarget) => ({
  name: 'start-path-only',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('node:')) return undefined;
      if (!args.path.startsWith('.')) {
        return { errors: [{ text: `${args.path}: the entry point's static imports must be our own small modules (import packages dynamically, on first use)` }] };
      }
      if (args.kind === 'dynamic-import') return { path: dynamicTarget(sourceOf(args)), external: true };
      return { path: sourceOf(args) };
    });
  },
});

/**
 * A CommonJS bundle of one entry point; `dynamicTarget(outDir)` names the file each dynamic import()
 * loads. import.meta.url through the banner's function: a module's own `const require = createRequire(…)` cannot shadow it.
 */
async function startPathBundle(entry, outfile, dynamicTarget) {
  const outDir = dirname(join(dist, outfile));
  await build({
    entryPoints: [join(src, entry)],
    outfile: join(dist, outfile),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [startPathOnly(dynamicTarget(outDir)), compiledUrls((file) => `__compiledFileUrl(${JSON.stringify(distPath(file, outDir))})`)],
    banner: { js: "const __compiledFileUrl = (path) => require('node:url').pathToFileURL(require('node:path').join(__dirname, path)).href;" },
    logLevel: 'warning',
  });
}

// The entry point: its dynamic imports go to the lazy build's entries, found on the way.
const dynamicImports = new Set();
await startPathBundle('cli.ts', 'cli.cjs', (outDir) => (target) => {
  dynamicImports.add(target);
  return `./${slashes(relative(outDir, join(lazy, `${lazyName(target)}.js`)))}`;
});
// The .NET host process: its few dynamic imports stay tsc's ES modules.
await startPathBundle('engines/dotnet/host/hostMain.ts', 'engines/dotnet/host/hostMain.cjs', (outDir) => (target) => `./${distPath(target, outDir)}`);

const { metafile } = await build({
  entryPoints: [...dynamicImports].map((file) => ({ in: file, out: lazyName(file) })),
  outdir: lazy,
  chunkNames: 'chunk-[hash]',
  bundle: true,
  splitting: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  // Packages with a native part or a file read from their own folder are loaded from node_modules as they are.
  external: ['node-gyp-build', 'esbuild', 'typescript', 'bufferutil', 'utf-8-validate'],
  plugins: [
    {
      name: 'sources',
      setup(b) {
        // Our own relative imports name the .js that tsc writes: bundle the .ts beside it.
        b.onResolve({ filter: /^\./ }, (args) => (args.importer.startsWith(src) ? { path: sourceOf(args) } : undefined));
      },
    },
    {
      // zod's `locales` namespace (every language's error messages, a sixth of what the server loads)
      // rides along with each `import { z }`; we and the SDK use only English, which zod sets itself.
      name: 'zod-english-only',
      setup(b) {
        b.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) => (/[\\/]node_modules[\\/]zod[\\/]/.test(args.importer) ? { path: join(args.resolveDir, '..', 'locales', 'en.js'), namespace: 'zod-locales' } : undefined));
        b.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({ contents: `export { default as en } from ${JSON.stringify(args.path)};`, resolveDir: dirname(args.path) }));
      },
    },
    // Every output file sits in dist/lazy/: the compiled file is one folder up from there.
    compiledUrls((file) => `new URL(${JSON.stringify(`../${distPath(file, dist)}`)}, import.meta.url).href`),
  ],
  // The CommonJS packages bundled here (ws, vscode-jsonrpc…) require() Node.js built-ins.
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  // Less for V8 to parse on first load; names kept, so a stack trace still names its functions.
  minifyWhitespace: true,
  minifySyntax: true,
  metafile: true,
  logLevel: 'warning',
});
keepTwoBuilds(Object.keys(metafile.outputs).map((file) => relative(lazy, resolve(file))));

/**
 * Chunks are named by their contents: a server started from the last build may still import one of
 * its chunks (an engine, on first use) after this build, so the files of the last build stay beside
 * this one's (`npm run dev` rebuilds while the server it replaces still runs); older ones go.
 */
function keepTwoBuilds(written) {
  const listFile = join(lazy, 'builds.json');
  const last = existsSync(listFile) ? JSON.parse(readFileSync(listFile, 'utf8')) : [];
  const keep = new Set([...written, ...last, 'builds.json']);
  for (const file of readdirSync(lazy)) if (!keep.has(file)) rmSync(join(lazy, file), { force: true });
  writeFileSync(listFile, JSON.stringify(written));
}
