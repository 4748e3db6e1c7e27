/**
 * All sessions of this server: creating them (engine picked by language, up to a cap of live
 * ones), finding them (the id is implied when only one is active), persisting them, ending the ones
 * left idle, letting ended ones go (the last few stay readable, then a one-line summary), and
 * ending them all when the server goes.
 */
import { existsSync } from 'node:fs';
import type { BreakpointRecord, BreakpointRequest } from './breakpointRegistry.js';
import type { EngineFactory, LogLevel } from './engine.js';
import { EngineRegistry } from './engineRegistry.js';
import { DebugError } from './errors.js';
import { describeExit } from './eventSummary.js';
import { PathPolicy } from './pathPolicy.js';
import { Session } from './session.js';
import type { SessionConfig } from './sessionConfig.js';
import { limitsFromEnv, type SessionLimits } from './sessionLimits.js';
import { SessionStore, type StoredSession } from './sessionStore.js';

export interface SessionManagerOptions {
  registry?: EngineRegistry;
  store?: SessionStore;
  paths?: PathPolicy;
  limits?: Partial<SessionLimits>;
  log?: (level: LogLevel, message: string) => void;
}

export type Notifier = (session: Session, level: LogLevel, message: string) => void;

/** What is kept of an ended session once it is let go. */
export interface EndedSummary {
  sessionId: string;
  language: string;
  program: string;
  state: string;
  exitCode?: number;
  exitSignal?: string;
  error?: string;
  endedAt: number;
}

/** Ended sessions kept whole (output, events, restartable) — as many as can be live at once; older ones leave a summary. */
const KEPT_ENDED_SESSIONS = 32;
const KEPT_SUMMARIES = 50;
/** Sessions named in an error that lists the choices. */
const NAMED_CHOICES = 8;

export class SessionManager {
  readonly registry: EngineRegistry;
  readonly paths: PathPolicy;
  private readonly sessions = new Map<string, Session>();
  private readonly recoverable = new Map<string, StoredSession>();
  private readonly notRecoverable = new WeakSet<Session>();
  private readonly store: SessionStore;
  private readonly notifiers = new Set<Notifier>();
  private readonly summaries = new Map<string, EndedSummary>();
  private releasedCount = 0;
  private counter = 0;
  private readonly log: (level: LogLevel, message: string) => void;
  readonly limits: SessionLimits;
  private idleTimer?: NodeJS.Timeout;

  constructor(options: SessionManagerOptions = {}) {
    this.registry = options.registry ?? new EngineRegistry();
    this.store = options.store ?? new SessionStore();
    this.paths = options.paths ?? PathPolicy.fromEnv();
    this.limits = { ...limitsFromEnv(), ...options.limits };
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

  /** Checks the program path (a file, or a project folder) and makes it absolute against cwd. */
  resolveProgram(program: string, cwd: string): string {
    const full = this.paths.resolve(program, cwd, 'program', 'file or directory');
    if (!existsSync(full)) {
      throw new DebugError('PROGRAM_NOT_FOUND', `${full} does not exist.`, 'Check the path; relative paths are resolved against cwd (or the server\'s working directory).');
    }
    return full;
  }

  /**
   * Creates a session (not started yet) with its initial breakpoints. `engineFactory` replaces the
   * language's own, e.g. a test run's engine that wraps it.
   */
  async create(config: SessionConfig, breakpoints: BreakpointRequest[], reuseId?: string, stored?: BreakpointRecord[], engineFactory?: EngineFactory): Promise<Session> {
    const factory = engineFactory ?? (await this.registry.load(config.language));
    this.requireRoomForOneMore();
    const id = reuseId ?? this.nextId(config.language);
    const session = new Session(id, config, factory, {
      notify: (s, level, message) => this.notify(s, level, message),
      changed: () => this.persist(),
      ended: () => this.retireEnded(),
      log: this.log,
    }, stored);
    for (const bp of breakpoints) session.breakpoints.add(bp);
    // A test run is one request's run (debug_test), not a program to bring back after the server.
    if (engineFactory) this.notRecoverable.add(session);
    this.sessions.set(id, session);
    this.recoverable.delete(id);
    this.summaries.delete(id);
    this.persist();
    this.watchIdleSessions();
    return session;
  }

  /** Live sessions (starting, running or stopped). */
  live(): Session[] {
    return this.list().filter((s) => s.active);
  }

  /** How many ended sessions were let go, and the latest summaries of them. */
  released(): { count: number; latest: EndedSummary[] } {
    return { count: this.releasedCount, latest: [...this.summaries.values()].reverse() };
  }

  private requireRoomForOneMore(): void {
    const live = this.live();
    if (live.length < this.limits.maxSessions) return;
    const now = Date.now();
    const byIdle = live.sort((a, b) => a.lastActivity - b.lastActivity);
    const named = byIdle.slice(0, NAMED_CHOICES).map((s) => `${s.id} (${s.state}, idle ${formatDuration(now - s.lastActivity)}, ${s.config.program})`);
    const more = byIdle.length > named.length ? `; ${byIdle.length - named.length} more in session_list` : '';
    throw new DebugError(
      'SESSION_LIMIT',
      `${live.length} sessions are live, the most this server runs at once (DEBUGBRIDGE_MAX_SESSIONS=${this.limits.maxSessions}).`,
      `Stop the ones you no longer need with session_stop, longest idle first: ${named.join('; ')}${more}.`,
    );
  }

  /** Ended sessions beyond the last few are let go; a summary of each stays for a while. */
  private retireEnded(): void {
    const ended = this.list()
      .filter((s) => s.endedAt !== undefined)
      .sort((a, b) => a.endedAt! - b.endedAt!);
    for (const session of ended.slice(0, Math.max(0, ended.length - KEPT_ENDED_SESSIONS))) {
      const snap = session.snapshot();
      this.sessions.delete(session.id);
      this.releasedCount++;
      this.summaries.set(session.id, {
        sessionId: session.id,
        language: snap.language,
        program: snap.program,
        state: snap.state,
        exitCode: snap.exitCode,
        exitSignal: snap.exitSignal,
        error: snap.error,
        endedAt: session.endedAt!,
      });
      if (this.summaries.size > KEPT_SUMMARIES) this.summaries.delete(this.summaries.keys().next().value!);
    }
  }

  /** Ends live sessions no call has touched for `idleMs`, with a notification; the timer runs while any is live. */
  private watchIdleSessions(): void {
    const idleMs = this.limits.idleMs;
    if (!idleMs || this.idleTimer) return;
    this.idleTimer = setInterval(() => {
      const live = this.live();
      if (!live.length) {
        clearInterval(this.idleTimer);
        this.idleTimer = undefined;
        return;
      }
      const now = Date.now();
      for (const session of live) {
        const idleFor = now - session.lastActivity;
        // A start in progress is a call in progress (bounded by its own timeout).
        if (idleFor < idleMs || session.state === 'initializing') continue;
        const attached = !!session.config.attach;
        session.touch(); // ended once, not at every tick while it ends
        void session.end(attached).then(
          () => this.notify(session, 'warning', `Session ${session.id} was idle for ${formatDuration(idleFor)} and has ended (${attached ? 'detached; the program runs on' : 'its program was terminated'}). DEBUGBRIDGE_IDLE_TIMEOUT sets the idle time.`),
          (e: unknown) => this.log('warning', `ending idle session ${session.id}: ${(e as Error).message}`),
        );
      }
    }, Math.min(Math.max(idleMs / 4, 50), 30_000));
    this.idleTimer.unref();
  }

  private notify(session: Session, level: LogLevel, message: string): void {
    for (const n of this.notifiers) n(session, level, message);
  }

  /** The session by id; with no id, the only active session, or the latest one when none is active. */
  get(sessionId?: string): Session {
    const session = this.find(sessionId);
    session.touch();
    return session;
  }

  private find(sessionId?: string): Session {
    if (sessionId) {
      const s = this.sessions.get(sessionId);
      if (s) return s;
      if (this.recoverable.has(sessionId)) {
        throw new DebugError('SESSION_NOT_FOUND', `Session ${sessionId} belonged to a server that has stopped.`, `Call session_restart with sessionId "${sessionId}" to run it again with its breakpoints.`);
      }
      const summary = this.summaries.get(sessionId);
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
    return this.recoverable.get(sessionId);
  }

  remove(session: Session): void {
    this.sessions.delete(session.id);
    this.persist();
  }

  async disposeAll(): Promise<void> {
    clearInterval(this.idleTimer);
    this.idleTimer = undefined;
    await Promise.allSettled(this.list().map((s) => s.dispose()));
  }

  persist(): void {
    const live: StoredSession[] = this.list()
      .filter((s) => s.active && !this.notRecoverable.has(s))
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
    const byRecency = this.list().sort((a, b) => Number(b.active) - Number(a.active) || (b.endedAt ?? 0) - (a.endedAt ?? 0));
    const lines = byRecency.map((s) => `${s.id} (${s.config.language}, ${s.state}, ${s.config.program})`);
    const rec = this.recoverableSessions().map((r) => `${r.sessionId} (recoverable: ${r.config.program})`);
    const all = [...lines, ...rec];
    if (!all.length) return 'Start one with session_launch.';
    const more = all.length > NAMED_CHOICES ? `; ${all.length - NAMED_CHOICES} more in session_list` : '';
    return `Pass sessionId, one of: ${all.slice(0, NAMED_CHOICES).join('; ')}${more}.`;
  }
}


function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}
