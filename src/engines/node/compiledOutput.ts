/**
 * Finding JavaScript compiled from a TypeScript file: beside it (`tsc` without outDir), or where
 * the nearest tsconfig.json's outDir puts it. A candidate counts only if its source map names the
 * TypeScript file, so a stale or unrelated .js is not taken for it.
 */
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename, dirname, extname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { sourceMapUrlOf } from './loadHooks.js';
import { decodeDataUrl, type LoadedMap, type SourceMapCache } from './sourceMaps.js';

const OUT_EXTENSION: Record<string, string> = { '.ts': '.js', '.tsx': '.js', '.mts': '.mjs', '.cts': '.cjs' };
const TSCONFIG_SEARCH_DEPTH = 8;

export function compiledOutputOf(program: string): string | undefined {
  return candidatesFor(program).find((c) => existsSync(c) && mapNames(c, program));
}

/**
 * The compiled scripts a TypeScript file's breakpoints can be placed in before they load: its
 * compiled output, and the other scripts given (the program node runs), where their source map
 * names the file. Placing them ahead needs no pause when they load.
 */
export async function predictCompiled(file: string, scripts: string[], maps: SourceMapCache): Promise<{ url: string; map: LoadedMap }[]> {
  const found: { url: string; map: LoadedMap }[] = [];
  for (const script of new Set([...candidatesFor(file), ...scripts])) {
    const content = await readFile(script, 'utf8').catch(() => undefined);
    const sourceMapURL = content && sourceMapUrlOf(content);
    if (!sourceMapURL) continue;
    const url = pathToFileURL(script).href;
    const map = await maps.load(url, sourceMapURL);
    if (map?.mapsFile(file)) found.push({ url, map });
  }
  return found;
}

function candidatesFor(program: string): string[] {
  const ext = extname(program);
  const out = `${basename(program, ext)}${OUT_EXTENSION[ext.toLowerCase()] ?? '.js'}`;
  const candidates = [join(dirname(program), out)];
  const config = nearestTsconfig(dirname(program));
  if (config?.outDir) {
    const configDir = dirname(config.path);
    const outDir = resolve(configDir, config.outDir);
    for (const rootDir of new Set([config.rootDir ? resolve(configDir, config.rootDir) : configDir, join(configDir, 'src')])) {
      const rel = relative(rootDir, dirname(program));
      if (!rel.startsWith('..')) candidates.push(join(outDir, rel, out));
    }
  }
  return candidates;
}

function mapNames(compiled: string, program: string): boolean {
  try {
    const sourceMapURL = sourceMapUrlOf(readFileSync(compiled, 'utf8'));
    if (!sourceMapURL) return false;
    const text = sourceMapURL.startsWith('data:') ? decodeDataUrl(sourceMapURL) : readFileSync(fileURLToPath(new URL(sourceMapURL, pathToFileURL(compiled))), 'utf8');
    const map = JSON.parse(text) as { sources?: string[]; sourceRoot?: string };
    const mapDir = sourceMapURL.startsWith('data:') ? dirname(compiled) : dirname(fileURLToPath(new URL(sourceMapURL, pathToFileURL(compiled))));
    return (map.sources ?? []).some((s) => resolve(mapDir, map.sourceRoot ?? '', s) === program);
  } catch {
    return false;
  }
}

interface TsconfigPaths {
  path: string;
  outDir?: string;
  rootDir?: string;
}

function nearestTsconfig(from: string): TsconfigPaths | undefined {
  let dir = from;
  for (let i = 0; i < TSCONFIG_SEARCH_DEPTH; i++) {
    const path = join(dir, 'tsconfig.json');
    if (existsSync(path)) {
      try {
        const options = (JSON.parse(withoutComments(readFileSync(path, 'utf8'))) as { compilerOptions?: { outDir?: string; rootDir?: string } }).compilerOptions ?? {};
        return { path, outDir: options.outDir, rootDir: options.rootDir };
      } catch {
        return { path };
      }
    }
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  return undefined;
}

/** tsconfig.json allows comments and trailing commas. */
function withoutComments(text: string): string {
  return text
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/(^|[^:"\\])\/\/.*$/gm, '$1')
    .replace(/,(\s*[}\]])/g, '$1');
}
