/**
 * The debuggee as our child, held until the debugger lets it run: `node --inspect-brk=127.0.0.1:0
 * program args…` paused before its first line where the launch stops on entry, else `node
 * --inspect=127.0.0.1:0 …` held by the preload's inspector.waitForDebugger() (node's break on start
 * of an ES module whose top level declares a class with #private members kills node 20 with
 * SIGSEGV). Reads the inspector's WebSocket URL from stderr and passes everything else the program
 * writes on as output.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { DebugError } from '../../core/errors.js';
import { endChild, hasEnded } from './processEnd.js';
import { InspectorLineFilter, type InspectorLine } from './inspectorLines.js';
import { killedWithUs, probeParentDeathSignal } from '../../core/parentDeathSignal.js';

export interface InspectorLaunch {
  runtime: string;
  runtimeArgs: string[];
  program: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  /** node pauses on the program's first line (stop on entry). */
  breakOnStart: boolean;
}

export interface InspectorProcessListeners {
  output(category: 'stdout' | 'stderr', text: string): void;
  /** The script is over and node waits for us to hang up before it exits (nodejs/node#13888). */
  waitingForDisconnect(): void;
  /** The process is gone and its output read to the end. */
  exit(code: number | null, signal: NodeJS.Signals | null): void;
}

const STDERR_TAIL_LINES = 40;

export class InspectorProcess {
  private readonly stderrTail: string[] = [];
  private readonly inspectorLines: string[] = [];

  private constructor(private readonly child: ChildProcess) {}

  /** Spawns node and resolves with the process once its inspector listens. */
  static async start(launch: InspectorLaunch, listeners: InspectorProcessListeners, signal?: AbortSignal): Promise<{ process: InspectorProcess; url: string }> {
    await probeParentDeathSignal();
    const { command, args } = killedWithUs(launch.runtime, [...launch.runtimeArgs, `${launch.breakOnStart ? '--inspect-brk' : '--inspect'}=127.0.0.1:0`, launch.program, ...launch.args]);
    const child = spawn(command, args, {
      cwd: launch.cwd,
      // The preload waits for the debugger when asked so (preload.cts).
      env: { ...process.env, ...launch.env, ...(launch.breakOnStart ? {} : { DEBUGBRIDGE_WAIT_FOR_DEBUGGER: '1' }) },
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
    const debuggee = new InspectorProcess(child);
    return new Promise((resolve, reject) => {
      const fail = (message: string) => {
        void endChild(child);
        reject(new DebugError('LAUNCH_FAILED', message, debuggee.stderrHint() ?? 'Check that the runtime runs: node --version.'));
      };
      const onAbort = () => fail('Cancelled while starting node.');
      signal?.addEventListener('abort', onAbort, { once: true });
      debuggee.listen(listeners, (url) => {
        signal?.removeEventListener('abort', onAbort);
        resolve({ process: debuggee, url });
      });
      child.once('error', (e) => fail(`Cannot start ${launch.runtime}: ${e.message}.`));
      child.once('exit', (code, sig) => fail(`node exited (${sig ?? `code ${code}`}) before its inspector listened.`));
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get running(): boolean {
    return !hasEnded(this.child);
  }

  /** The inspector's own lines and the last lines of the program's stderr, for diagnostics. */
  stderrLines(): string[] {
    return [...this.inspectorLines, ...this.stderrTail];
  }

  end(): Promise<void> {
    return endChild(this.child);
  }

  private listen(listeners: InspectorProcessListeners, onUrl: (url: string) => void): void {
    const filter = new InspectorLineFilter();
    this.child.stdout!.setEncoding('utf8').on('data', (text: string) => listeners.output('stdout', text));
    this.child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      const { program, inspector } = filter.push(chunk);
      for (const line of inspector) this.inspectorLine(line, listeners, onUrl);
      if (program) this.programStderr(program, listeners);
    });
    this.child.stderr!.on('end', () => {
      const rest = filter.flush();
      if (rest) this.programStderr(rest, listeners);
    });
    // `close` comes after both pipes are drained: every output event is out before the exit.
    this.child.once('close', (code, sig) => listeners.exit(code, sig));
  }

  private inspectorLine(line: InspectorLine, listeners: InspectorProcessListeners, onUrl: (url: string) => void): void {
    this.inspectorLines.push(line.text);
    if (line.url) onUrl(line.url);
    if (line.kind === 'waitingForDisconnect') listeners.waitingForDisconnect();
  }

  private programStderr(text: string, listeners: InspectorProcessListeners): void {
    listeners.output('stderr', text);
    this.stderrTail.push(...text.split('\n').filter(Boolean));
    this.stderrTail.splice(0, Math.max(0, this.stderrTail.length - STDERR_TAIL_LINES));
  }

  private stderrHint(): string | undefined {
    const tail = this.stderrTail.slice(-5);
    return tail.length ? `node said: ${tail.join(' | ')}` : undefined;
  }
}
