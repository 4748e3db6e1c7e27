/**
 * One client's sessions: creating them (engine picked by language, up to a cap of live ones over
 * all clients), finding them (the id is implied when only one is active), listing them, and what
 * is kept of ended ones. Ids are the client's own (`python-1` for each client); another client's
 * session is found only by its whole id (`python-1@3fa2c1`), never by default. The pool
 * (sessionPool.ts) holds every client's sessions; `forClient` gives another client's view of it.
 */
import { existsSync } from 'node:fs';
import type { BreakpointRecord, BreakpointRequest } from './breakpointRegistry.js';
import type { EngineFactory } from './engine.js';
import type { EngineRegistry } from './engineRegistry.js';
import { DebugError } from './errors.js';
import { describeExit } from './eventSummary.js';
import { PathMap } from './pathMap.js';
import { pathMappedFactory } from './pathMappedEngine.js';
import type { PathPolicy } from './pathPolicy.js';
import { Session } from './session.js';
import type { SessionConfig } from './sessionConfig.js';
import type { SessionLimits } from './sessionLimits.js';
import { DEFAULT_CLIENT, NAMED_CHOICES, SessionPool, wholeId, type EndedSummary, type Notifier, type PooledSession, type SessionClient, type SessionPoolOptions } from './sessionPool.js';
import type { StoredSession } from './sessionStore.js';
import type { Targets } from '../remote/targets.js';

export type { EndedSummary, Notifier, SessionClient } from './sessionPool.js';
export type SessionManagerOptions = SessionPoolOptions;

export class SessionManager {
  private readonly pool: SessionPool;
  /** Read at each use: a daemon connection learns its client when it initializes. */
  private readonly clientOf: () => SessionClient;

  constructor(options: SessionManagerOptions = {}, pool?: SessionPool, client: () => SessionClient = () => DEFAULT_CLIENT) {
    this.pool = pool ?? new SessionPool(options);
    this.clientOf = client;
  }

  /** The same sessions as another client sees them. */
  forClient(client: () => SessionClient): SessionManager {
    return new SessionManager({}, this.pool, client);
  }

  get client(): SessionClient {
    return this.clientOf();
  }
  get registry(): EngineRegistry {
    return this.pool.registry;
  }
  get paths(): PathPolicy {
    return this.pool.paths;
  }
  get targets(): Targets {
    return this.pool.targets;
  }
  get limits(): SessionLimits {
    return this.pool.limits;
  }

  private owns(entry: { client: SessionClient }): boolean {
    return entry.client.key === this.client.key;
  }

  /** Notifications of this client's sessions; returns the unsubscribe. */
  onNotify(notifier: Notifier): () => void {
    return this.pool.onNotify((session, level, message) => {
      const client = this.pool.clientOf(session);
      if (client && this.owns({ client })) notifier(session, level, message);
    });
  }

  /** This client's sessions. */
  list(): Session[] {
    return [...this.pool.sessions.values()].filter((e) => this.owns(e)).map((e) => e.session);
  }

  /** Every client's sessions, by whole id (the daemon's status). */
  everyClient(): (PooledSession & { wholeId: string })[] {
    return [...this.pool.sessions.entries()].map(([id, e]) => ({ ...e, wholeId: id }));
  }

  recoverableSessions(): StoredSession[] {
    return [...this.pool.recoverable.values()].filter((r) => this.owns(r)).map((r) => r.stored);
  }

  /** Checks the program path (a file, or a project folder) and makes it absolute against cwd. */
  resolveProgram(program: string, cwd: string): string {
    const full = this.paths.resolve(program, cwd, 'program', 'file or directory');
    if (!existsSync(full)) {
      throw new DebugError('PROGRAM_NOT_FOUND', `${full} does not exist.`, 'Check the path; relative paths are resolved against cwd (or the server\'s working directory).');
    }
    return full;
  }

  /**
   * Creates a session of this client (not started yet) with its initial breakpoints.
   * `engineFactory` replaces the language's own, e.g. a test run's engine that wraps it; on a
   * target it is the target's engine already (a test run planned there), used as it is.
   */
  async create(config: SessionConfig, breakpoints: BreakpointRequest[], reuseId?: string, stored?: BreakpointRecord[], engineFactory?: EngineFactory): Promise<Session> {
    const factory = engineFactory ?? (await this.engineFactory(config));
    const client = this.client;
    this.pool.requireRoomForOneMore((e) => this.owns(e));
    const id = reuseId ?? this.pool.nextId(config.language, client);
    const session = new Session(
      id,
      config,
      factory,
      {
        notify: (s, level, message) => this.pool.notify(s, level, message),
        changed: () => this.pool.persist(),
        ended: () => this.pool.retireEnded(),
        log: this.pool.log,
      },
      stored,
    );
    for (const bp of breakpoints) session.breakpoints.add(bp);
    // A test run is one request's run (debug_test), not a program to bring back after the server.
    this.pool.add(session, client, { recoverable: !engineFactory });
    return session;
  }

  /** The language's engine: on the config's target, or here behind its path map, or here as it is. */
  private async engineFactory(config: SessionConfig): Promise<EngineFactory> {
    const local = await this.registry.load(config.language);
    if (config.target) return this.pool.targets.factory(config.target, local);
    return config.pathMappings ? pathMappedFactory(local, new PathMap(config.pathMappings)) : local;
  }

  /** This client's live sessions (starting, running or stopped). */
  live(): Session[] {
    return this.list().filter((s) => s.active);
  }

  /** How many of this client's ended sessions were let go, and the latest summaries of them. */
  released(): { count: number; latest: EndedSummary[] } {
    return { count: this.pool.releasedCount.get(this.client.key) ?? 0, latest: [...this.pool.summaries.values()].filter((s) => this.owns(s)).reverse() };
  }

  /** The session by id (this client's, or any client's by its whole id); with no id, this client's only active session, or its latest one when none is active. */
  get(sessionId?: string): Session {
    const session = this.find(sessionId);
    session.touch();
    return session;
  }

  /** A whole id names its client (`python-1@3fa2c1`); a bare one means this client's. */
  private whole(sessionId: string): string {
    return sessionId.includes('@') ? sessionId : wholeId(sessionId, this.client);
  }

  private find(sessionId?: string): Session {
    if (sessionId) {
      const id = this.whole(sessionId);
      const s = this.pool.sessions.get(id);
      if (s) return s.session;
      if (this.pool.recoverable.has(id)) {
        throw new DebugError('SESSION_NOT_FOUND', `Session ${sessionId} belonged to a server that has stopped.`, `Call session_restart with sessionId "${sessionId}" to run it again with its breakpoints.`);
      }
      const summary = this.pool.summaries.get(id);
      if (summary) {
        throw new DebugError(
          'SESSION_NOT_FOUND',
          `Session ${sessionId} ended (${summary.state}${summary.exitCode !== undefined || summary.exitSignal ? `: the program ${describeExit(summary.exitCode, summary.exitSignal)}` : ''}) and was let go.`,
          `Start ${summary.program} again with session_launch.`,
        );
      }
      throw new DebugError('SESSION_NOT_FOUND', `No session "${sessionId}".`, this.describeChoices());
    }
    const all = this.list();
    if (all.length === 1) return all[0];
    const active = all.filter((s) => s.active);
    if (active.length === 1) return active[0];
    // Nothing running: the agent most likely means the run that just ended.
    if (active.length === 0 && all.length > 0) return all.reduce((a, b) => (b.startedAt >= a.startedAt ? b : a));
    if (all.length === 0) {
      throw new DebugError('SESSION_NOT_FOUND', 'There is no debugging session.', 'Start one with session_launch (or session_attach).');
    }
    throw new DebugError('SESSION_AMBIGUOUS', `There are ${all.length} sessions; say which one.`, this.describeChoices());
  }

  storedSession(sessionId: string): StoredSession | undefined {
    return this.pool.recoverable.get(this.whole(sessionId))?.stored;
  }

  remove(session: Session): void {
    this.pool.remove(session);
  }

  /** Ends every client's sessions (the server is going away). */
  disposeAll(): Promise<void> {
    return this.pool.disposeAll();
  }

  persist(): void {
    this.pool.persist();
  }

  private describeChoices(): string {
    const byRecency = this.list().sort((a, b) => Number(b.active) - Number(a.active) || (b.endedAt ?? 0) - (a.endedAt ?? 0));
    const lines = byRecency.map((s) => `${s.id} (${s.config.language}, ${s.state}, ${s.config.program})`);
    const rec = this.recoverableSessions().map((r) => `${r.sessionId} (recoverable: ${r.config.program})`);
    const all = [...lines, ...rec];
    if (!all.length) return 'Start one with session_launch.';
    const more = all.length > NAMED_CHOICES ? `; ${all.length - NAMED_CHOICES} more in session_list` : '';
    return `Pass sessionId, one of: ${all.slice(0, NAMED_CHOICES).join('; ')}${more}.`;
  }
}
