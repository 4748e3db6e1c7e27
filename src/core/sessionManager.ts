/**
 * All sessions of this server: creating them (engine picked by language), finding them (the id is
 * implied when only one is active), persisting them, and ending them all when the server goes.
 */
import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { BreakpointRecord, BreakpointRequest } from './breakpointRegistry.js';
import type { LogLevel } from './engine.js';
import { EngineRegistry } from './engineRegistry.js';
import { DebugError } from './errors.js';
import { Session, type SessionConfig } from './session.js';
import { SessionStore, type StoredSession } from './sessionStore.js';

export interface SessionManagerOptions {
  registry?: EngineRegistry;
  store?: SessionStore;
  log?: (level: LogLevel, message: string) => void;
}

export type Notifier = (session: Session, level: LogLevel, message: string) => void;

export class SessionManager {
  readonly registry: EngineRegistry;
  private readonly sessions = new Map<string, Session>();
  private readonly recoverable = new Map<string, StoredSession>();
  private readonly store: SessionStore;
  private readonly notifiers = new Set<Notifier>();
  private counter = 0;
  private readonly log: (level: LogLevel, message: string) => void;

  constructor(options: SessionManagerOptions = {}) {
    this.registry = options.registry ?? new EngineRegistry();
    this.store = options.store ?? new SessionStore();
    this.log = options.log ?? (() => undefined);
    for (const stored of this.store.adoptOrphans()) this.recoverable.set(stored.sessionId, stored);
    if (this.recoverable.size) this.persist();
  }

  /** Returns the unsubscribe: the shell daemon connects a server per client, on one manager. */
  onNotify(notifier: Notifier): () => void {
    this.notifiers.add(notifier);
    return () => this.notifiers.delete(notifier);
  }

  list(): Session[] {
    return [...this.sessions.values()];
  }

  recoverableSessions(): StoredSession[] {
    return [...this.recoverable.values()];
  }

  /** Checks the program path and makes it absolute against cwd. */
  resolveProgram(program: string, cwd: string): string {
    const full = isAbsolute(program) ? program : resolve(cwd, program);
    if (!existsSync(full)) {
      throw new DebugError('PROGRAM_NOT_FOUND', `${full} does not exist.`, 'Check the path; relative paths are resolved against cwd (or the server\'s working directory).');
    }
    return full;
  }

  /** Creates a session (not started yet) with its initial breakpoints. */
  async create(config: SessionConfig, breakpoints: BreakpointRequest[], reuseId?: string, stored?: BreakpointRecord[]): Promise<Session> {
    const factory = await this.registry.load(config.language);
    const id = reuseId ?? this.nextId(config.language);
    const session = new Session(id, config, factory, {
      notify: (s, level, message) => {
        for (const n of this.notifiers) n(s, level, message);
      },
      changed: () => this.persist(),
      log: this.log,
    }, stored);
    for (const bp of breakpoints) session.breakpoints.add(bp);
    this.sessions.set(id, session);
    this.recoverable.delete(id);
    this.persist();
    return session;
  }

  /** The session by id; with no id, the only active session, or the latest one when none is active. */
  get(sessionId?: string): Session {
    if (sessionId) {
      const s = this.sessions.get(sessionId);
      if (s) return s;
      if (this.recoverable.has(sessionId)) {
        throw new DebugError('SESSION_NOT_FOUND', `Session ${sessionId} belonged to a server that has stopped.`, `Call session_restart with sessionId "${sessionId}" to run it again with its breakpoints.`);
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
    return this.recoverable.get(sessionId);
  }

  remove(session: Session): void {
    this.sessions.delete(session.id);
    this.persist();
  }

  async disposeAll(): Promise<void> {
    await Promise.allSettled(this.list().map((s) => s.dispose()));
  }

  persist(): void {
    const live: StoredSession[] = this.list()
      .filter((s) => s.active)
      .map((s) => ({
        sessionId: s.id,
        config: s.config,
        breakpoints: s.breakpoints.all(false).map(({ binding: _b, hits: _h, ...rest }) => rest),
        savedAt: Date.now(),
      }));
    this.store.save([...live, ...this.recoverable.values()]);
  }

  private nextId(language: string): string {
    let id: string;
    do id = `${language}-${++this.counter}`;
    while (this.sessions.has(id) || this.recoverable.has(id));
    return id;
  }

  private describeChoices(): string {
    const lines = this.list().map((s) => `${s.id} (${s.config.language}, ${s.state}, ${s.config.program})`);
    const rec = this.recoverableSessions().map((r) => `${r.sessionId} (recoverable: ${r.config.program})`);
    const all = [...lines, ...rec];
    return all.length ? `Pass sessionId, one of: ${all.join('; ')}.` : 'Start one with session_launch.';
  }
}

