// Build step (`npm run build`, after tsc): the command's entry point and what it loads later, bundled.
//
// - dist/cli.cjs, the entry point, one CommonJS file: a server's first answers (initialize,
//   tools/list from the build-time catalog) need only it and the few modules it imports statically;
//   loaded as ES modules they cost Node.js its ES module loader and the eager namespaces of node:fs
//   and node:crypto, more than our own code. Bundled into one CommonJS file they load with require().
// - dist/lazy.cjs, everything the entry point reaches by a dynamic import() (the MCP server with the
//   SDK and zod, the session manager, the engine registry and each engine, the commands): one
//   CommonJS bundle that cli.cjs loads on first use through a V8 code cache (src/codeCache.ts), so
//   V8 neither parses nor compiles the ~1.5 MB the server's tools need on each start. Each module
//   still exists once (one DebugError class for all) and still runs on first use only: esbuild
//   turns an import() of a bundled module into a lazy init, so a .NET-only user never runs the
//   Python engine. The engine registry names its built-in engines by literal import()s so this
//   build sees them (src/core/engineRegistry.ts).
// - The .NET debugger host (src/engines/dotnet/host/hostMain.ts), a process of its own that a first
//   launch waits for: one CommonJS file too (dist/engines/dotnet/host/hostMain.cjs).
// The code cache (dist/lazy.cjs.v8cache) is written after a representative run
// (scripts/write-code-cache.mjs) by the Node.js that builds; another Node.js rejects it, and the
// bundle then compiles as it would without one.
//
// tsc's dist/ files stay: dist/cli.js runs them unbundled, the debuggee-side helpers (preload.cjs,
// tsxLines.js, the reload watchdog) are started from them, and the tool catalog's fingerprint reads
// them. Every import.meta.url in a bundled module is the URL of its compiled file in dist/, so the
// paths a module builds from it are the ones tsc's file would build.
import { readFile } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { BUNDLE_PARAMETERS, cacheFileOf } from '../dist/codeCache.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const slashes = (path) => path.split(sep).join('/');
/** The compiled counterpart of a source file, as a path from `folder` in dist/ (forward slashes). */
const distPath = (sourceFile, folder) => slashes(relative(folder, join(dist, relative(src, sourceFile)))).replace(/\.ts$/, '.js');
/** A source file's own relative import (`./x.js`) as the .ts file it names. */
const sourceOf = (args) => join(args.resolveDir, args.path).replace(/\.js$/, '.ts');
/** The lazy bundle's name for an entry point: its path under src/, flat (`core/engineRegistry.ts` → `core-engineRegistry`). */
const lazyName = (sourceFile) => slashes(relative(src, sourceFile)).replace(/\.ts$/, '').replaceAll('/', '-');
/**
 * import.meta.url of a bundled module, from the `__dirname` of the bundle in `folder`, through the
 * banner's function: a module's own `const require = createRequire(…)` cannot shadow it.
 */
const compiledFileUrl = (folder) => (file) => `__compiledFileUrl(${JSON.stringify(distPath(file, folder))})`;
const COMPILED_FILE_URL = "const __compiledFileUrl = (path) => require('node:url').pathToFileURL(require('node:path').join(__dirname, path)).href;";

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

/** Static imports are bundled; a dynamic import() goes where `dynamicImport(sourceFile)` resolves it. */
const startPathOnly = (dynamicImport) => ({
  name: 'start-path-only',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('node:')) return undefined;
      if (!args.path.startsWith('.')) {
        return { errors: [{ text: `${args.path}: the entry point's static imports must be our own small modules (import packages dynamically, on first use)` }] };
      }
      if (args.kind === 'dynamic-import' && args.namespace !== 'lazy') return dynamicImport(sourceOf(args));
      return { path: sourceOf(args) };
    });
    // An import() of a module in the lazy bundle: that bundle loaded (once, through its code cache), then the
    // module's exports (its initialising under src/codeCache.ts's settings: the compile, under V8's own, takes the cache).
    b.onLoad({ filter: /.*/, namespace: 'lazy' }, (args) => ({
      contents: `const codeCache = require('./codeCache.js');\nconst bundle = codeCache.requireBundle(require('node:path').join(__dirname, 'lazy.cjs'));\nmodule.exports = codeCache.initialising(() => bundle[${JSON.stringify(args.path)}]());`,
      resolveDir: src,
      loader: 'js',
    }));
  },
});

/** Options every bundle shares: CommonJS for Node.js 20. */
const commonJs = { bundle: true, platform: 'node', format: 'cjs', target: 'node20', logLevel: 'warning', banner: { js: COMPILED_FILE_URL } };
/** A bundle that src/codeCache.ts runs: one function expression taking Node.js's module parameters (so its lines are the file's). */
const codeCached = { banner: { js: `(function (${BUNDLE_PARAMETERS}) {${COMPILED_FILE_URL}` }, footer: { js: '})' } };

// The entry point: its dynamic imports go to the lazy bundle's entries, found on the way.
const lazyEntries = new Set();
await build({
  ...commonJs,
  entryPoints: [join(src, 'cli.ts')],
  outfile: join(dist, 'cli.cjs'),
  plugins: [
    startPathOnly((target) => (lazyEntries.add(target), { path: lazyName(target), namespace: 'lazy' })),
    compiledUrls(compiledFileUrl(dist)),
  ],
});

// V8 checks a cache against its source's length only: the last build's cache must never meet this build's bundle.
rmSync(cacheFileOf(join(dist, 'lazy.cjs')), { force: true });
await build({
  ...commonJs,
  ...codeCached,
  // Each entry a function that runs its module (once) and returns its exports: esbuild bundles a require() as a lazy init.
  stdin: {
    contents: `module.exports = {\n${[...lazyEntries].map((file) => `  ${JSON.stringify(lazyName(file))}: () => require(${JSON.stringify(file)}),`).join('\n')}\n};`,
    resolveDir: src,
    loader: 'js',
  },
  outfile: join(dist, 'lazy.cjs'),
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
    {
      // The SDK's server builds an Ajv instance when constructed, for one use: checking an
      // elicitation's answer, which debugbridge never asks for. Ajv (with ajv-formats and fast-uri)
      // then loads when a schema is first checked, not with every server.
      name: 'ajv-on-first-use',
      setup(b) {
        b.onResolve({ filter: /^\.\.\/validation\/ajv-provider\.js$/ }, (args) =>
          /[\\/]@modelcontextprotocol[\\/]sdk[\\/]dist[\\/]esm[\\/]server[\\/]index\.js$/.test(args.importer) ? { path: join(args.resolveDir, args.path), namespace: 'ajv-on-first-use' } : undefined,
        );
        b.onLoad({ filter: /.*/, namespace: 'ajv-on-first-use' }, (args) => ({
          contents: `export class AjvJsonSchemaValidator {\n  getValidator(schema) {\n    this.ajv ??= new (require(${JSON.stringify(args.path)}).AjvJsonSchemaValidator)();\n    return this.ajv.getValidator(schema);\n  }\n}\n`,
          resolveDir: dirname(args.path),
        }));
      },
    },
    compiledUrls(compiledFileUrl(dist)),
  ],
  // Less source to read; names kept, so a stack trace still names its functions.
  minifyWhitespace: true,
  minifySyntax: true,
});
// V8 keeps a bundle's source for as long as the process runs, one byte a character if all of it is
// ASCII, two otherwise (3.4 MB instead of 1.7 for lazy.cjs). esbuild escapes what it can; the rest
// (a String.raw template, a regular expression) must be written in ASCII in src/.
for (const bundle of ['cli.cjs', 'lazy.cjs']) {
  const text = await readFile(join(dist, bundle), 'utf8');
  const at = text.search(/[^\x00-\x7f]/);
  if (at >= 0) throw new Error(`dist/${bundle} is not all ASCII (write it as an escape in src/): …${text.slice(Math.max(0, at - 60), at + 20)}…`);
}
// The ES module build this one replaced.
rmSync(join(dist, 'lazy'), { recursive: true, force: true });

// The .NET host process: its few dynamic imports stay tsc's ES modules. (A code cache did not pay
// here: the host's own start is Node.js's start and the native addon's load, not compiling.)
const hostFolder = join(dist, 'engines', 'dotnet', 'host');
await build({
  ...commonJs,
  entryPoints: [join(src, 'engines', 'dotnet', 'host', 'hostMain.ts')],
  outfile: join(hostFolder, 'hostMain.cjs'),
  plugins: [startPathOnly((target) => ({ path: `./${distPath(target, hostFolder)}`, external: true })), compiledUrls(compiledFileUrl(hostFolder))],
});

execFileSync(process.execPath, [join(root, 'scripts', 'write-code-cache.mjs')], { stdio: 'inherit' });
