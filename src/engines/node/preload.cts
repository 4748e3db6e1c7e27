/**
 * Loaded into every node process of a launched program (through NODE_OPTIONS `--require`), before
 * the program's own code. Plain CommonJS with node's built-ins only; it never throws into the
 * program, and it leaves no frame of its own in the program's stacks. Its jobs:
 * - a process the program starts reports its inspector to the session (a file in the hub folder)
 *   and waits until the debugger has armed its breakpoints; it ends itself if the server dies;
 * - the launched program, started with --inspect rather than --inspect-brk, waits here likewise;
 * - the inspector flags of the first process are kept from its children (`fork` copies execArgv);
 * - it hands the debugger node's CommonJS compile function, on which the debugger sets a
 *   conditional breakpoint that pauses before a module it asks about is compiled (V8's own
 *   "before script" pause does not fire for CommonJS, nodejs/node#31138). When the debugger
 *   already asks before the program starts, it pauses once here so that breakpoint is in place.
 */
import Module = require('node:module');

/** Where the debugger finds the compile function, and what it sets while it wants modules to pause. */
const COMPILE_FUNCTION = Symbol.for('debugbridge.compile');
const LOAD_HOOK = Symbol.for('debugbridge.loadHook');
const WATCH_SERVER_MS = 1000;
/** Set by inspectorProcess.ts for the program it starts with --inspect. */
const WAIT_FOR_DEBUGGER = 'DEBUGBRIDGE_WAIT_FOR_DEBUGGER';

function main(): void {
  const globals = globalThis as Record<symbol, unknown>;
  globals[COMPILE_FUNCTION] = (Module as unknown as { prototype: { _compile: unknown } }).prototype._compile;
  const hub = process.env.DEBUGBRIDGE_HUB;
  const serverPid = Number(process.env.DEBUGBRIDGE_SERVER_PID);
  if (hub) {
    // The first process runs with the inspector flags we gave it (it loads nothing more here: with
    // a debugger attached every module costs); a process it starts has none of them.
    const inspected = process.execArgv.some((arg) => /^--inspect/.test(arg));
    if (process.env[WAIT_FOR_DEBUGGER]) waitForDebugger();
    if (inspected) keepInspectFlagsFromChildren();
    else if ((require('node:worker_threads') as typeof import('node:worker_threads')).isMainThread && alive(serverPid)) reportAndWait(hub, serverPid);
  }
  if (globals[LOAD_HOOK]) debugbridgeArmLoadHook();
}

/** The debugger sets its breakpoint on the compile function while this pauses. */
function debugbridgeArmLoadHook(): void {
  // eslint-disable-next-line no-debugger
  debugger;
}

/** The launched program waits here (not in node's --inspect-brk); what it starts, workers too, does not inherit the ask. */
function waitForDebugger(): void {
  delete process.env[WAIT_FOR_DEBUGGER];
  (require('node:inspector') as typeof import('node:inspector')).waitForDebugger();
}

function keepInspectFlagsFromChildren(): void {
  process.execArgv = process.execArgv.filter((arg) => !/^--inspect(?:-brk|-port|-publish-uid)?(?:=|$)/.test(arg));
}

function reportAndWait(hub: string, serverPid: number): void {
  const fs = require('node:fs') as typeof import('node:fs');
  const inspector = require('node:inspector') as typeof import('node:inspector');
  const path = require('node:path') as typeof import('node:path');
  if (inspector.url()) return; // started with its own inspector: not ours to attach
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

try {
  main();
} catch {
  // The program runs as it would without us.
}
