/**
 * Which file each script the runtime parsed comes from. Paused call frames may carry an empty
 * `url`; their `location.scriptId` always maps through here.
 */
import { isAbsolute } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Protocol } from 'devtools-protocol';

export class ScriptRegistry {
  private readonly urls = new Map<string, string>();

  parsed(event: Protocol.Debugger.ScriptParsedEvent): void {
    if (event.url) this.urls.set(event.scriptId, event.url);
  }

  urlOf(scriptId: string): string | undefined {
    return this.urls.get(scriptId);
  }

  /** The absolute path of a script loaded from a file; undefined for node internals and evals. */
  pathOf(scriptId: string): string | undefined {
    const url = this.urls.get(scriptId);
    return url ? pathOfUrl(url) : undefined;
  }
}

export function pathOfUrl(url: string): string | undefined {
  if (url.startsWith('file://')) {
    try {
      return fileURLToPath(url);
    } catch {
      return undefined;
    }
  }
  // CommonJS scripts of old Node versions are named by their plain path.
  return isAbsolute(url) ? url : undefined;
}
