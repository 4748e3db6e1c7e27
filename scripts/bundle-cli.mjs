// Build step (`npm run build`, after tsc): dist/cli.cjs, the command's entry point, one CommonJS file.
//
// A server's first answers (initialize, tools/list from the build-time catalog) need only the entry
// point and the few modules it imports statically; loaded as ES modules they cost Node.js its ES
// module loader and the eager namespaces of node:fs and node:crypto, more than our own code. Bundled
// into one CommonJS file they load with require() alone. Everything reached through a dynamic
// import() stays out of the bundle: it is imported lazily from tsc's dist/ files, as before.
import { readFile } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
const outfile = join(dist, 'cli.cjs');
/** The compiled counterpart of a source file, as a path from dist/ (forward slashes). */
const distPath = (sourceFile) => relative(src, sourceFile).replace(/\.ts$/, '.js').split(sep).join('/');

/** Static imports are bundled; dynamic imports stay ES modules loaded from dist/ on first use. */
const startPathOnly = {
  name: 'start-path-only',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === 'entry-point' || args.path.startsWith('node:')) return undefined;
      if (!args.path.startsWith('.')) {
        return { errors: [{ text: `${args.path}: the entry point's static imports must be our own small modules (import packages dynamically, on first use)` }] };
      }
      const target = join(args.resolveDir, args.path);
      if (args.kind === 'dynamic-import') return { path: `./${distPath(target.replace(/\.js$/, '.ts'))}`, external: true };
      return { path: target.replace(/\.js$/, '.ts') };
    });
    // import.meta.url of each bundled module: the URL of its compiled file in dist/, so the paths
    // it builds from it (the tool catalog, package.json) are the ones tsc's file would build.
    b.onLoad({ filter: /\.ts$/ }, async (args) => {
      const url = `require('node:url').pathToFileURL(require('node:path').join(__dirname, ${JSON.stringify(distPath(args.path))})).href`;
      return { contents: (await readFile(args.path, 'utf8')).replaceAll('import.meta.url', url), loader: 'ts' };
    });
  },
};

await build({
  entryPoints: [join(src, 'cli.ts')],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  plugins: [startPathOnly],
  logLevel: 'warning',
});
