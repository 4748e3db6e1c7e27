/**
 * The function the load hook's breakpoint condition calls in the debuggee, before node compiles a
 * CommonJS module: whether the debugger wants to see that module before it runs. It must be cheap
 * and must never throw into the program, so it looks at text only: a function name in the module's
 * source, or a source file's name in its source map.
 */

/** JavaScript source of the filter, for `Runtime.evaluate`; its arguments are baked in. */
export function loadHookFilterSource(mappedFileNames: string[], functionNames: string[]): string {
  return `((mapped, names) => function debugbridgeLoadHookFilter(content, filename, module) {
  try {
    if (typeof content !== 'string' || typeof filename !== 'string') return false;
    if (names.length && !/[\\\\/]node_modules[\\\\/]/.test(filename) && names.some((n) => content.includes(n))) return true;
    if (!mapped.length) return false;
    const at = content.lastIndexOf('sourceMappingURL=');
    if (at < 0) return false;
    const url = content.slice(at + 17).split(/\\s/, 1)[0];
    let text;
    if (url.startsWith('data:')) {
      const comma = url.indexOf(',');
      const body = url.slice(comma + 1);
      text = url.slice(0, comma).endsWith(';base64') ? Buffer.from(body, 'base64').toString('utf8') : decodeURIComponent(body);
    } else {
      const path = module.require('path');
      text = module.require('fs').readFileSync(path.resolve(path.dirname(filename), decodeURIComponent(url)), 'utf8');
    }
    return mapped.some((name) => text.includes(name));
  } catch {
    return false;
  }
})(${JSON.stringify(mappedFileNames)}, ${JSON.stringify(functionNames)})`;
}
