/**
 * Source maps of the scripts V8 runs: from a `data:` URL (inline) or a file beside the script,
 * read once each and resolved against the map's own URL.
 */
import { readFile } from 'node:fs/promises';
import type { LoadedMap } from './loadedMap.js';

export type { LoadedMap, OriginalPosition } from './loadedMap.js';

/** Maps by script and map URL, each read and parsed once; a map that cannot be read is remembered as none. */
export class SourceMapCache {
  private readonly maps = new Map<string, Promise<LoadedMap | undefined>>();

  load(scriptUrl: string, sourceMapURL: string): Promise<LoadedMap | undefined> {
    const key = `${scriptUrl}\n${sourceMapURL}`;
    let map = this.maps.get(key);
    if (!map) {
      map = readMap(scriptUrl, sourceMapURL).catch(() => undefined);
      this.maps.set(key, map);
    }
    return map;
  }
}

async function readMap(scriptUrl: string, sourceMapURL: string): Promise<LoadedMap | undefined> {
  if (sourceMapURL.startsWith('data:')) return parse(decodeDataUrl(sourceMapURL), scriptUrl);
  const mapUrl = new URL(sourceMapURL, scriptUrl);
  if (mapUrl.protocol !== 'file:') return undefined;
  return parse(await readFile(mapUrl, 'utf8'), mapUrl.href);
}

/** The mapping library loads with the first map. */
async function parse(text: string, mapUrl: string): Promise<LoadedMap> {
  const { LoadedMap } = await import('./loadedMap.js');
  return LoadedMap.parse(text, mapUrl);
}

/** `data:application/json;base64,…` or a percent-encoded `data:application/json,…`. */
export function decodeDataUrl(url: string): string {
  const comma = url.indexOf(',');
  const meta = url.slice(5, comma);
  const body = url.slice(comma + 1);
  return meta.endsWith(';base64') ? Buffer.from(body, 'base64').toString('utf8') : decodeURIComponent(body);
}
