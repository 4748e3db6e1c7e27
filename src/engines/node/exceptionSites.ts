/**
 * Where an exception stop's exception and each of its causes were thrown, as source positions: from
 * the stack text V8 wrote when the value was made (the throw site, even when it was rethrown), else
 * the top frame.
 */
import { pathToFileURL } from 'node:url';
import type { Protocol } from 'devtools-protocol';
import { MAX_CAUSES } from '../../core/exceptionAutopsy.js';
import type { ExceptionCause } from '../../core/types.js';
import type { CdpClient } from './cdpClient.js';
import { readCauses } from './exceptionCauses.js';
import { throwSiteOf } from './pausedStops.js';
import type { ScriptRegistry } from './scriptRegistry.js';

export async function throwSite(scripts: ScriptRegistry, stack: string | undefined, top: Protocol.Debugger.CallFrame | undefined) {
  const site = throwSiteOf(stack);
  if (site) {
    const url = site.url.startsWith('file:') || !site.url.startsWith('/') ? site.url : pathToFileURL(site.url).href;
    const [script] = scripts.byUrl(url);
    if (!script) return { file: site.url.startsWith('file:') ? undefined : site.url, line: site.line, column: site.column };
    const at = await scripts.location(script.scriptId, site.line - 1, site.column - 1);
    return { file: at.file, line: at.line, column: at.column };
  }
  if (!top) return undefined;
  const at = await scripts.location(top.location.scriptId, top.location.lineNumber, top.location.columnNumber ?? 0);
  return { file: at.file, line: at.line, column: at.column };
}

/** The thrown value's causes, one more than the autopsy lists so it can say that there are more. */
export async function causesOf(cdp: CdpClient, scripts: ScriptRegistry, thrown: Protocol.Runtime.RemoteObject | undefined): Promise<ExceptionCause[]> {
  if (!thrown) return [];
  const causes = await readCauses(cdp, thrown, MAX_CAUSES + 1);
  return Promise.all(
    causes.map(async (c) => {
      const thrownAt = await throwSite(scripts, c.stack, undefined).catch(() => undefined);
      return { type: c.type, message: c.message, relation: 'cause' as const, ...(thrownAt ? { thrownAt: { file: thrownAt.file, line: thrownAt.line } } : {}) };
    }),
  );
}
