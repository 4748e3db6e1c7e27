/**
 * The server's end of one target: the exec command started as a child (its own process group),
 * `debugbridge agent` at the far end of its stdin/stdout, one JSON-RPC connection over them for
 * every engine of the target. The versions are compared first; a cut pipe ends every engine of the
 * target with one clear message, and closing the connection leaves nothing running on either side
 * (the agent disposes its engines when its stdin ends; the exec command's group is killed after).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { CancellationTokenSource, ResponseError, type MessageConnection, type RequestParam, type RequestType } from 'vscode-jsonrpc';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { EngineEvent, LogLevel } from '../core/engine.js';
import { DebugError, ErrorCodes, isDebugError, type ErrorCode } from '../core/errors.js';
import { signalGroup, ownGroup } from '../reload/processGroup.js';
import { VERSION } from '../version.js';
import { engineEvent, engineLog, hello, type ErrorData, type HelloAnswer } from './remoteProtocol.js';

export interface TargetSpec {
  name: string;
  command: string[];
}

/** What an engine of the target hears from the far side. */
export interface EngineListener {
  event(event: EngineEvent): void;
  log(level: LogLevel, message: string): void;
  lost(message: string): void;
}

const HELLO_TIMEOUT_MS = 30_000;
const STDERR_LINES = 20;
const KILL_GRACE_MS = 3_000;
/** How long a failed start waits for the exec command's exit to say why. */
const EXIT_SEEN_MS = 2_000;
/** How long the end of the agent's output waits for the exec command's exit (a busy machine may take a while). */
const EXIT_AFTER_OUTPUT_MS = 1_000;

export class TargetConnection {
  private readonly listeners = new Map<number, EngineListener>();
  /** Rejects of the requests awaiting an answer: a lost connection fails them at once. */
  private readonly pending = new Set<(e: DebugError) => void>();
  private readonly stderrLines: string[] = [];
  private lostMessage?: string;
  agent?: HelloAnswer;
  /** When a request was last sent or answered. */
  lastUsed = Date.now();
  /** Called when the last engine of the target is let go. */
  onIdle?: () => void;

  private constructor(
    readonly spec: TargetSpec,
    private readonly child: ChildProcess,
    private readonly connection: MessageConnection,
  ) {}

  /** Starts the exec command and checks the agent's version; a failure leaves nothing running. */
  static async open(spec: TargetSpec): Promise<TargetConnection> {
    const [command, ...args] = spec.command;
    const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], detached: ownGroup });
    const connection = createMessageConnection(new StreamMessageReader(child.stdout!), new StreamMessageWriter(child.stdin!));
    const target = new TargetConnection(spec, child, connection);
    target.watch();
    try {
      const answer = await target.request(hello, { version: VERSION }, HELLO_TIMEOUT_MS);
      if (answer.version !== VERSION) throw mismatch(spec.name, answer.version);
      target.agent = answer;
      return target;
    } catch (e) {
      // A command that could not start the agent fails the first write (EPIPE) before its exit is
      // seen: its exit and last output say why.
      const failure = isDebugError(e) && e.code === 'TARGET_VERSION_MISMATCH' ? e : await target.lostWithin(EXIT_SEEN_MS, e);
      target.close();
      throw failure;
    }
  }

  private async lostWithin(ms: number, otherwise: unknown): Promise<unknown> {
    const deadline = Date.now() + ms;
    while (!this.lostMessage && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
    return this.lostMessage ? this.lostError() : otherwise;
  }

  get closed(): boolean {
    return this.lostMessage !== undefined;
  }

  get engineCount(): number {
    return this.listeners.size;
  }

  stderrTail(): string[] {
    return [...this.stderrLines];
  }

  attachEngine(id: number, listener: EngineListener): void {
    this.listeners.set(id, listener);
  }

  detachEngine(id: number): void {
    if (this.listeners.delete(id) && this.listeners.size === 0) this.onIdle?.();
  }

  /** One request to the agent, its failure as a DebugError; `signal` cancels it on the far side too. */
  async request<P, R>(type: RequestType<P, R, void>, params: P, timeoutMs?: number, signal?: AbortSignal): Promise<R> {
    if (this.lostMessage) throw this.lostError();
    this.lastUsed = Date.now();
    const cancel = new CancellationTokenSource();
    const onAbort = () => cancel.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    let fail!: (e: DebugError) => void;
    const failed = new Promise<never>((_, reject) => (fail = reject));
    this.pending.add(fail);
    const timer = timeoutMs
      ? setTimeout(() => fail(new DebugError('TARGET_UNAVAILABLE', `Target "${this.spec.name}" did not answer ${type.method} within ${timeoutMs / 1000} s.${this.stderrText()}`, this.reconnectHint())), timeoutMs)
      : undefined;
    try {
      return await Promise.race([this.connection.sendRequest(type, params as RequestParam<P>, cancel.token), failed]);
    } catch (e) {
      throw this.asDebugError(e);
    } finally {
      this.lastUsed = Date.now();
      clearTimeout(timer);
      this.pending.delete(fail);
      signal?.removeEventListener('abort', onAbort);
      cancel.dispose();
    }
  }

  /** Ends the agent (its stdin closes, it disposes its engines and exits), then the exec command's group. */
  close(): void {
    this.lose(`The connection to target "${this.spec.name}" was closed.`);
  }

  private watch(): void {
    this.child.stderr!.setEncoding('utf8');
    let partial = '';
    this.child.stderr!.on('data', (chunk: string) => {
      const lines = (partial + chunk).split('\n');
      partial = lines.pop() ?? '';
      for (const line of lines) if (line.trim()) this.stderrLines.push(line);
      this.stderrLines.splice(0, Math.max(0, this.stderrLines.length - STDERR_LINES));
    });
    this.child.on('error', (e) => this.lose(`Target "${this.spec.name}" could not start ${this.spec.command[0]}: ${e.message}`));
    this.child.on('exit', (code, signal) =>
      // stderr may still hold the reason: read what is left before saying why.
      setTimeout(() => this.lose(`The connection to target "${this.spec.name}" was lost: ${this.spec.command[0]} ${signal ? `was killed by ${signal}` : `exited with code ${code}`}.${this.stderrText()}`), 50),
    );
    this.connection.onClose(() =>
      // The exec command's exit, when it comes with the end of its output, says more: it is given a moment.
      setTimeout(
        () => this.lose(`The connection to target "${this.spec.name}" was lost: the agent's output ended.${this.stderrText()}`),
        this.child.exitCode === null && this.child.signalCode === null ? EXIT_AFTER_OUTPUT_MS : 100,
      ),
    );
    this.connection.onNotification(engineEvent, ({ engine, event }) => this.listeners.get(engine)?.event(event));
    this.connection.onNotification(engineLog, ({ engine, level, message }) => this.listeners.get(engine)?.log(level, message));
    this.connection.listen();
  }

  private lose(message: string): void {
    if (this.lostMessage) return;
    this.lostMessage = message;
    const listeners = [...this.listeners.values()];
    this.listeners.clear();
    for (const listener of listeners) listener.lost(message);
    for (const fail of this.pending) fail(this.lostError());
    this.connection.dispose();
    this.child.stdin?.end();
    const pid = this.child.pid;
    if (pid !== undefined && this.child.exitCode === null && this.child.signalCode === null) {
      // The agent ends itself when its stdin closes; the group is killed if anything lingers.
      const kill = setTimeout(() => signalGroup(pid, 'SIGKILL'), KILL_GRACE_MS);
      kill.unref();
      this.child.once('exit', () => {
        clearTimeout(kill);
        signalGroup(pid, 'SIGKILL');
      });
    } else if (pid !== undefined) {
      signalGroup(pid, 'SIGKILL');
    }
  }

  private stderrText(): string {
    return this.stderrLines.length ? ` Its last output: ${this.stderrLines.slice(-5).join(' | ')}` : '';
  }

  private lostError(): DebugError {
    return new DebugError('TARGET_UNAVAILABLE', this.lostMessage ?? `Target "${this.spec.name}" is not connected.`, this.reconnectHint());
  }

  private reconnectHint(): string {
    return `Check that \`${this.spec.command.join(' ')}\` runs \`debugbridge agent\` (debugbridge doctor), then start the session again.`;
  }

  private asDebugError(e: unknown): DebugError {
    if (e instanceof DebugError) return e;
    if (e instanceof ResponseError) {
      const data = e.data as ErrorData | undefined;
      if (data?.debugCode === 'TARGET_VERSION_MISMATCH') return mismatch(this.spec.name, String(data.details?.agentVersion));
      const code = (ErrorCodes as readonly string[]).includes(data?.debugCode ?? '') ? (data!.debugCode as ErrorCode) : 'INTERNAL';
      if (this.lostMessage && !data) return this.lostError();
      return new DebugError(code, e.message, data?.hint, data?.details);
    }
    if (this.lostMessage) return this.lostError();
    return new DebugError('TARGET_UNAVAILABLE', `Target "${this.spec.name}": ${e instanceof Error ? e.message : String(e)}`, this.reconnectHint());
  }
}

function mismatch(name: string, agentVersion: string): DebugError {
  return new DebugError(
    'TARGET_VERSION_MISMATCH',
    `Target "${name}" runs debugbridge agent ${agentVersion}; this server is debugbridge ${VERSION}.`,
    `Install debugbridge ${VERSION} on the far side (npm install -g debugbridge@${VERSION}), or run the server of version ${agentVersion}.`,
    { serverVersion: VERSION, agentVersion },
  );
}
