// Build step (`npm run build`, after tsc): dist/cli.cjs, the command's entry point, one CommonJS file.
//
// A server's first answers (initialize, tools/list from the build-time catalog) need only the entry
// point and the few modules it imports statically; loaded as ES modules they cost Node.js its ES
// module loader and the eager namespaces of node:fs and node:crypto, more than our own code. Bundled
// into one CommonJS file they load with require() alone. Everything reached through a dynamic
// import() stays out of the bundle: it is imported lazily from tsc's dist/ files, as before.
//
// The .NET debugger host (src/engines/dotnet/host/hostMain.ts) is a process of its own that a first
// launch waits for: bundled the same way (dist/engines/dotnet/host/hostMain.cjs) it boots in about
// half the time its ~95 ES modules took.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
/** The compiled counterpart of a source file, as a path from `folder` in dist/ (forward slashes). */
const distPath = (sourceFile, folder) => relative(folder, join(dist, relative(src, sourceFile))).replace(/\.ts$/, '.js').split(sep).join('/');

/** Static imports are bundled; dynamic imports stay ES modules loaded from dist/ on first use. */
const startPathOnly = (outDir) => ({
  name: 'start-path-only',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('node:')) return undefined;
      if (!args.path.startsWith('.')) {
        return { errors: [{ text: `${args.path}: the entry point's static imports must be our own small modules (import packages dynamically, on first use)` }] };
      }
      const target = join(args.resolveDir, args.path);
      if (args.kind === 'dynamic-import') return { path: `./${distPath(target.replace(/\.js$/, '.ts'), outDir)}`, external: true };
      return { path: target.replace(/\.js$/, '.ts') };
    });
    // import.meta.url of each bundled module: the URL of its compiled file in dist/, so the paths
    // it builds from it (the tool catalog, package.json) are the ones tsc's file would build. Through
    // the banner's function: a module's own `const require = createRequire(…)` cannot shadow it.
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const url = `__compiledFileUrl(${JSON.stringify(distPath(args.path, outDir))})`;
      return { contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
});

for (const [entry, outfile] of [
  ['cli.ts', 'cli.cjs'],
  ['engines/dotnet/host/hostMain.ts', 'engines/dotnet/host/hostMain.cjs'],
]) {
  await build({
    entryPoints: [join(src, entry)],
    outfile: join(dist, outfile),
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    plugins: [startPathOnly(dirname(join(dist, outfile)))],
    banner: { js: "const __compiledFileUrl = (path) => require('node:url').pathToFileURL(require('node:path').join(__dirname, path)).href;" },
    logLevel: 'warning',
  });
}
