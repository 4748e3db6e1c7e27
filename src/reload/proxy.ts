/**
 * The message router between the client and the current run of the server, and the restart
 * sequence around it. Invariant: every client request handed to a run is answered exactly once,
 * by that run or, when the run ends without answering, by the proxy with -32603.
 *
 *   running ──reload──▶ starting ──replayed initialize answered──▶ running
 *      │                  │ (old run stopped, new run started; client messages held)
 *      └──crash──▶ backoff ──timer──▶ starting        crash too often ──▶ given-up ──reload──▶ starting
 */
import { CrashPolicy } from './crashPolicy.js';
import { errorResponse, idKey, INTERNAL_ERROR, notificationLine, parseLine, requestLine, type RpcId, type RpcMessage } from './jsonRpc.js';
import type { ReloadLog } from './reloadLog.js';
import { RestartQueue } from './restartQueue.js';
import { describeExit, ServerProcess, type ServerExit } from './serverProcess.js';

export interface ProxyConfig {
  command: string;
  args: string[];
  killTimeoutMs: number;
  toClient: (line: Buffer) => void;
  log: ReloadLog;
  /** Told about every server process that starts and ends (the watchdog). */
  onServerStarted?: (pid: number) => void;
  onServerEnded?: (pid: number) => void;
}

interface ServerRun {
  readonly number: number;
  readonly process: ServerProcess;
  /** Client requests handed to this run and not answered yet. */
  readonly pending: Map<string, RpcId>;
  /** This run's requests to the client still waiting for the client's answer. */
  readonly askedClient: Set<string>;
  /** Id of the initialize the proxy replayed to it, until answered. */
  replayId?: string;
  /** Set once the proxy decided to end this run: its exit is then not a crash. */
  retired: boolean;
  /** Why the proxy itself is ending a run that is still alive. */
  failure?: string;
}

type Phase = 'running' | 'starting' | 'backoff' | 'given-up' | 'closed';

const retryHint = 'it may be retried';

export class ReloadProxy {
  private phase: Phase = 'starting';
  private current: ServerRun | undefined;
  private readonly live = new Set<ServerRun>();
  private runCount = 0;
  private readonly queue = new RestartQueue();
  private readonly crashPolicy = new CrashPolicy();
  private backoffTimer: NodeJS.Timeout | undefined;
  private givenUpReason = '';
  /** A reload asked for while one was under way: done once that one is complete. */
  private reloadAgain: string | undefined;
  private reloadStarted: { reason: string; at: number } | undefined;

  // What the client said to open the session, replayed to every new run.
  private initialize: { id: RpcId; params: unknown } | undefined;
  private initializeAnswered = false;
  private initializedNotification: Buffer | undefined;

  constructor(private readonly config: ProxyConfig) {}

  start(): void {
    this.startRun();
  }

  fromClient(line: Buffer): void {
    switch (this.phase) {
      case 'running':
        return this.deliver(this.current!, line);
      case 'starting':
      case 'backoff':
        if (!this.queue.push(line)) this.refuse(line, `the MCP server is restarting and the proxy already holds ${this.queue.size} messages; ${retryHint} later`);
        return;
      case 'given-up':
        return this.refuse(line, this.givenUpReason);
      case 'closed':
        return;
    }
  }

  /** Stops the current run and starts a new one (a file changed, or SIGUSR2). */
  async reload(reason: string): Promise<void> {
    if (this.phase === 'closed') return;
    if (this.phase === 'starting') {
      this.reloadAgain = reason;
      return;
    }
    this.crashPolicy.reset();
    clearTimeout(this.backoffTimer);
    this.phase = 'starting';
    this.reloadStarted = { reason, at: Date.now() };
    const old = this.current;
    this.current = undefined;
    if (old) {
      this.config.log.info(`${reason}: restarting the MCP server`);
      await this.retire(old, `the MCP server was restarted (${reason}) before answering this request; ${retryHint}`, 'restarted');
    }
    if (this.phase === 'starting') this.startRun();
  }

  /** Ends every run (SIGTERM, then SIGKILL) and stops routing. */
  async close(): Promise<void> {
    if (this.phase === 'closed') return;
    this.phase = 'closed';
    clearTimeout(this.backoffTimer);
    this.current = undefined;
    await Promise.all([...this.live].map((run) => this.retire(run, 'the reload proxy is shutting down', 'shutdown')));
  }

  private startRun(): void {
    const number = ++this.runCount;
    // Lines arrive on a later turn of the event loop, by when `run` is assigned.
    const serverProcess = new ServerProcess(this.config.command, this.config.args, (line) => this.fromServer(run, line));
    const run: ServerRun = { number, process: serverProcess, pending: new Map(), askedClient: new Set(), retired: false };
    const pid = run.process.pid;
    if (pid !== undefined) this.config.onServerStarted?.(pid);
    this.current = run;
    this.live.add(run);
    void run.process.exited.then((exit) => this.onExit(run, exit));
    if (this.initialize && this.initializeAnswered) {
      this.phase = 'starting';
      run.replayId = `debugbridge-reload:initialize:${number}`;
      run.process.write(requestLine(run.replayId, 'initialize', this.initialize.params));
    } else {
      this.becomeReady(run);
    }
  }

  private deliver(run: ServerRun, line: Buffer): void {
    const messages = parseLine(line);
    for (const message of messages) {
      if (message.kind === 'request') {
        run.pending.set(idKey(message.id), message.id);
        if (message.method === 'initialize') this.initialize = { id: message.id, params: message.params };
        if (message.method === 'logging/setLevel') this.config.log.setClientLevel((message.params as { level?: unknown } | undefined)?.level);
      } else if (message.kind === 'notification' && message.method === 'notifications/initialized') {
        this.initializedNotification = line;
      } else if (message.kind === 'response' && message.id !== null && !run.askedClient.delete(idKey(message.id)) && messages.length === 1) {
        // The answer to a request of a run that is gone: the new run never asked it.
        return;
      }
    }
    run.process.write(line);
  }

  private fromServer(run: ServerRun, line: Buffer): void {
    const messages = parseLine(line);
    if (messages.length === 0) {
      process.stderr.write(`[debugbridge-reload] the MCP server wrote a line that is not JSON to stdout (kept off the protocol): ${line.subarray(0, 200).toString('utf8')}\n`);
      return;
    }
    let answersInitialize = false;
    for (const message of messages) {
      if (message.kind === 'response' && message.id !== null) {
        const key = idKey(message.id);
        if (run.replayId !== undefined && key === idKey(run.replayId)) return this.onReplayAnswer(run, message);
        if (run.pending.delete(key) && this.initialize && key === idKey(this.initialize.id) && message.error === undefined) answersInitialize = true;
      } else if (message.kind === 'request') {
        run.askedClient.add(idKey(message.id));
      }
    }
    this.config.toClient(line);
    if (answersInitialize && !this.initializeAnswered) {
      this.initializeAnswered = true;
      this.config.log.connectClient(this.config.toClient);
    }
  }

  private onReplayAnswer(run: ServerRun, answer: RpcMessage & { kind: 'response' }): void {
    run.replayId = undefined;
    if (run.retired || run !== this.current) return;
    if (answer.error !== undefined) {
      run.failure = `answered the replayed initialize with an error: ${JSON.stringify(answer.error)}`;
      void run.process.stop(this.config.killTimeoutMs);
      return;
    }
    if (this.initializedNotification) run.process.write(this.initializedNotification);
    const capabilities = (answer.result as { capabilities?: Record<string, unknown> } | undefined)?.capabilities ?? {};
    this.becomeReady(run);
    this.announceChanges(capabilities);
  }

  private becomeReady(run: ServerRun): void {
    this.phase = 'running';
    for (const line of this.queue.drain()) this.deliver(run, line);
    if (this.reloadAgain !== undefined) {
      const reason = this.reloadAgain;
      this.reloadAgain = undefined;
      void this.reload(reason);
    }
  }

  private announceChanges(capabilities: Record<string, unknown>): void {
    this.config.toClient(notificationLine('notifications/tools/list_changed'));
    if (capabilities.prompts) this.config.toClient(notificationLine('notifications/prompts/list_changed'));
    if (capabilities.resources) this.config.toClient(notificationLine('notifications/resources/list_changed'));
    if (this.reloadStarted) {
      this.config.log.info(`the MCP server was restarted (${this.reloadStarted.reason}) in ${Date.now() - this.reloadStarted.at} ms`);
      this.reloadStarted = undefined;
    } else {
      this.config.log.info('the MCP server is running again');
    }
  }

  private async retire(run: ServerRun, why: string, reason: 'restarted' | 'shutdown'): Promise<void> {
    run.retired = true;
    await run.process.stop(this.config.killTimeoutMs);
    this.failPending(run, why, { reason });
  }

  private onExit(run: ServerRun, exit: ServerExit): void {
    this.live.delete(run);
    if (run.process.pid !== undefined) this.config.onServerEnded?.(run.process.pid);
    if (run.retired) return;
    const what = run.failure ?? describeExit(exit);
    this.failPending(run, `the MCP server ${what} before answering this request; ${retryHint}`, {
      reason: 'crashed',
      exitCode: exit.code,
      signal: exit.signal,
    });
    if (run !== this.current || this.phase === 'closed') return;
    this.current = undefined;
    if (this.reloadAgain !== undefined) {
      // Files changed while this run was starting: try those instead of waiting out a backoff.
      const reason = this.reloadAgain;
      this.reloadAgain = undefined;
      this.phase = 'backoff';
      void this.reload(reason);
      return;
    }
    const decision = this.crashPolicy.recordCrash();
    if (decision.restart) {
      this.phase = 'backoff';
      this.config.log.warning(`the MCP server ${what}; starting it again in ${decision.delayMs} ms`);
      this.backoffTimer = setTimeout(() => {
        this.reloadStarted = { reason: 'after a crash', at: Date.now() };
        this.startRun();
      }, decision.delayMs);
      return;
    }
    this.phase = 'given-up';
    this.givenUpReason =
      `the MCP server is not running: it ${what}, its ${decision.crashes}th crash within ${decision.windowMs / 1000} s, ` +
      'so the reload proxy stopped restarting it. Fix the server; the next file change starts it again.';
    this.config.log.error(this.givenUpReason);
    for (const line of this.queue.drain()) this.refuse(line, this.givenUpReason);
  }

  private failPending(run: ServerRun, why: string, data: Record<string, unknown>): void {
    for (const id of run.pending.values()) this.config.toClient(errorResponse(id, INTERNAL_ERROR, why, data));
    run.pending.clear();
    run.askedClient.clear();
  }

  /** Answers the requests in a line the proxy cannot deliver; notifications in it are dropped. */
  private refuse(line: Buffer, why: string): void {
    for (const message of parseLine(line)) {
      if (message.kind === 'request') this.config.toClient(errorResponse(message.id, INTERNAL_ERROR, why));
    }
  }
}
