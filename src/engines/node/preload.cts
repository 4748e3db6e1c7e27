/**
 * Loaded into every node process of a launched program (through NODE_OPTIONS `--require`), before
 * the program's own code. Plain CommonJS with node's built-ins only; it never throws into the
 * program. It does three jobs:
 * - a process the program starts reports its inspector to the session (a file in the hub folder)
 *   and waits until the debugger has armed its breakpoints; it ends itself if the server dies;
 * - the inspector flags of the first process are kept from its children (`fork` copies execArgv);
 * - CommonJS modules pass through a hook that pauses before a module the debugger asks about is
 *   compiled (V8's own "before script" pause does not fire for CommonJS, nodejs/node#31138), so
 *   breakpoints in source-mapped files and functions by name bind before that code runs.
 */
import fs = require('node:fs');
import inspector = require('node:inspector');
import Module = require('node:module');
import path = require('node:path');
import workerThreads = require('node:worker_threads');

/** Set by the debugger in each isolate: what makes the hook pause. */
interface LoadHookRequest {
  /** Base names of source files with breakpoints that only bind through source maps. */
  mapped?: string[];
  /** Last parts of function breakpoint names. */
  names?: string[];
}

const HOOK_REQUEST = Symbol.for('debugbridge.loadHook');
const WATCH_SERVER_MS = 1000;

function main(): void {
  const hub = process.env.DEBUGBRIDGE_HUB;
  const serverPid = Number(process.env.DEBUGBRIDGE_SERVER_PID);
  if (workerThreads.isMainThread && hub) {
    keepInspectFlagsFromChildren();
    if (!inspector.url() && alive(serverPid)) reportAndWait(hub, serverPid);
  }
  hookCommonJs();
}

function keepInspectFlagsFromChildren(): void {
  process.execArgv = process.execArgv.filter((arg) => !/^--inspect(?:-brk|-port|-publish-uid)?(?:=|$)/.test(arg));
}

function reportAndWait(hub: string, serverPid: number): void {
  inspector.open(0, '127.0.0.1', false);
  const url = inspector.url();
  if (!url) return;
  const report = JSON.stringify({ pid: process.pid, ppid: process.ppid, url, script: process.argv[1] ?? '' });
  const file = path.join(hub, `${process.pid}.json`);
  fs.writeFileSync(`${file}.tmp`, report);
  fs.renameSync(`${file}.tmp`, file);
  setInterval(() => {
    if (!alive(serverPid)) process.kill(process.pid, 'SIGKILL');
  }, WATCH_SERVER_MS).unref();
  inspector.waitForDebugger();
}

function alive(pid: number): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function hookCommonJs(): void {
  const proto = (Module as unknown as { prototype: { _compile(content: string, filename: string): unknown } }).prototype;
  const compile = proto._compile;
  proto._compile = function debugbridgeCompile(this: unknown, content: string, filename: string) {
    const request = (globalThis as Record<symbol, LoadHookRequest | undefined>)[HOOK_REQUEST];
    if (request && typeof content === 'string' && typeof filename === 'string' && wanted(request, content, filename)) debugbridgeLoadHook(filename, content);
    // eslint-disable-next-line prefer-rest-params
    return compile.apply(this, arguments as unknown as [string, string]);
  };
}

/** The debugger reads `filename` and `content` in this frame, binds what it must, and resumes. */
function debugbridgeLoadHook(filename: string, content: string): void {
  void filename;
  void content;
  // eslint-disable-next-line no-debugger
  debugger;
}

function wanted(request: LoadHookRequest, content: string, filename: string): boolean {
  const dependency = /[\\/]node_modules[\\/]/.test(filename);
  if (request.names?.length && !dependency && request.names.some((name) => content.includes(name))) return true;
  if (!request.mapped?.length) return false;
  const map = sourceMapText(content, filename);
  return !!map && request.mapped.some((name) => map.includes(name));
}

function sourceMapText(content: string, filename: string): string | undefined {
  const at = content.lastIndexOf('sourceMappingURL=');
  if (at < 0) return undefined;
  const url = content.slice(at + 'sourceMappingURL='.length).split(/\s/, 1)[0];
  try {
    if (url.startsWith('data:')) {
      const comma = url.indexOf(',');
      const body = url.slice(comma + 1);
      return url.slice(0, comma).endsWith(';base64') ? Buffer.from(body, 'base64').toString('utf8') : decodeURIComponent(body);
    }
    return fs.readFileSync(path.resolve(path.dirname(filename), decodeURIComponent(url)), 'utf8');
  } catch {
    return undefined;
  }
}

try {
  main();
} catch {
  // The program runs as it would without us.
}
