/**
 * Every session a server holds, whoever started it: the cap of live ones, ending the ones left idle,
 * letting ended ones go (a summary of each stays a while), the session file, and ending them all
 * when the server goes. Each session belongs to one client; a SessionManager is one client's view.
 * The MCP stdio server has one client (the default); the shell daemon one per calling shell.
 */
import type { LogLevel } from './engine.js';
import { EngineRegistry } from './engineRegistry.js';
import { DebugError } from './errors.js';
import { PathPolicy } from './pathPolicy.js';
import type { Session } from './session.js';
import { limitsFromEnv, type SessionLimits } from './sessionLimits.js';
import { SessionStore, type StoredSession } from './sessionStore.js';
import { Targets } from '../remote/targets.js';

/**
 * Who a session belongs to: `key` says who (DEBUGBRIDGE_CLIENT, a terminal, a project folder);
 * `tag` is the short form that makes its ids whole for another client (`python-1@3fa2c1`).
 */
export interface SessionClient {
  key: string;
  tag: string;
}

/** The one client of a server that serves one (the MCP stdio server): its ids need no tag. */
export const DEFAULT_CLIENT: SessionClient = { key: '', tag: '' };

/** A session's whole id: its own id, and its client's tag where the client has one. */
export function wholeId(id: string, client: SessionClient): string {
  return client.tag ? `${id}@${client.tag}` : id;
}

export interface SessionPoolOptions {
  registry?: EngineRegistry;
  store?: SessionStore;
  paths?: PathPolicy;
  /** The targets sessions may run on (default: the config files' and DEBUGBRIDGE_TARGETS'). */
  targets?: Targets;
  limits?: Partial<SessionLimits>;
  log?: (level: LogLevel, message: string) => void;
}

export type Notifier = (session: Session, level: LogLevel, message: string) => void;

/** What is kept of an ended session once it is let go. */
export interface EndedSummary {
  sessionId: string;
  client: SessionClient;
  language: string;
  program: string;
  state: string;
  exitCode?: number;
  exitSignal?: string;
  error?: string;
  endedAt: number;
}

export interface PooledSession {
  session: Session;
  client: SessionClient;
}

export interface RecoverableSession {
  stored: StoredSession;
  client: SessionClient;
}

/** Ended sessions kept whole (output, events, restartable) — as many as can be live at once; older ones leave a summary. */
const KEPT_ENDED_SESSIONS = 32;
const KEPT_SUMMARIES = 50;
/** Sessions named in an error that lists the choices. */
export const NAMED_CHOICES = 8;

export class SessionPool {
  readonly registry: EngineRegistry;
  readonly paths: PathPolicy;
  readonly targets: Targets;
  readonly limits: SessionLimits;
  readonly log: (level: LogLevel, message: string) => void;
  /** By whole id. */
  readonly sessions = new Map<string, PooledSession>();
  /** Sessions of a server that ended, by whole id. */
  readonly recoverable = new Map<string, RecoverableSession>();
  readonly summaries = new Map<string, EndedSummary>();
  /** Ended sessions let go, per client key. */
  readonly releasedCount = new Map<string, number>();
  private readonly notifiers = new Set<Notifier>();
  private readonly counters = new Map<string, number>();
  private readonly store: SessionStore;
  private readonly notRecoverable = new WeakSet<Session>();
  private idleTimer?: NodeJS.Timeout;

  constructor(options: SessionPoolOptions = {}) {
    this.registry = options.registry ?? new EngineRegistry();
    this.store = options.store ?? new SessionStore();
    this.paths = options.paths ?? PathPolicy.fromEnv();
    this.targets = options.targets ?? Targets.fromEnv();
    this.limits = { ...limitsFromEnv(), ...options.limits };
    this.log = options.log ?? (() => undefined);
    for (const stored of this.store.adoptOrphans()) {
      const client = stored.client ?? DEFAULT_CLIENT;
      this.recoverable.set(wholeId(stored.sessionId, client), { stored, client });
    }
    if (this.recoverable.size) this.persist();
  }

  onNotify(notifier: Notifier): () => void {
    this.notifiers.add(notifier);
    return () => this.notifiers.delete(notifier);
  }

  notify(session: Session, level: LogLevel, message: string): void {
    for (const n of this.notifiers) n(session, level, message);
  }

  /** The client a session belongs to. */
  clientOf(session: Session): SessionClient | undefined {
    for (const entry of this.sessions.values()) if (entry.session === session) return entry.client;
    return undefined;
  }

  /** `recoverable: false`: never saved for a later server to bring back (a test run). */
  add(session: Session, client: SessionClient, { recoverable }: { recoverable: boolean }): void {
    const id = wholeId(session.id, client);
    if (!recoverable) this.notRecoverable.add(session);
    this.sessions.set(id, { session, client });
    this.recoverable.delete(id);
    this.summaries.delete(id);
    this.persist();
    this.watchIdleSessions();
  }

  remove(session: Session): void {
    for (const [id, entry] of this.sessions) if (entry.session === session) this.sessions.delete(id);
    this.persist();
  }

  /** The next id of a language for a client (`python-3`): each client counts its own. */
  nextId(language: string, client: SessionClient): string {
    let id: string;
    do {
      const n = (this.counters.get(client.key) ?? 0) + 1;
      this.counters.set(client.key, n);
      id = `${language}-${n}`;
    } while (this.sessions.has(wholeId(id, client)) || this.recoverable.has(wholeId(id, client)));
    return id;
  }

  /** Room for one more live session, the cap counting every client's; the error names the asking client's idle ones. */
  requireRoomForOneMore(own: (entry: PooledSession) => boolean): void {
    const live = [...this.sessions.values()].filter((e) => e.session.active);
    if (live.length < this.limits.maxSessions) return;
    const now = Date.now();
    const byIdle = live.filter(own).sort((a, b) => a.session.lastActivity - b.session.lastActivity);
    const named = byIdle.slice(0, NAMED_CHOICES).map(({ session: s }) => `${s.id} (${s.state}, idle ${formatDuration(now - s.lastActivity)}, ${s.config.program})`);
    const more = byIdle.length > named.length ? `; ${byIdle.length - named.length} more in session_list` : '';
    const others = live.length - byIdle.length;
    throw new DebugError(
      'SESSION_LIMIT',
      `${live.length} sessions are live${others ? ` (${others} of other clients)` : ''}, the most this server runs at once (DEBUGBRIDGE_MAX_SESSIONS=${this.limits.maxSessions}).`,
      named.length ? `Stop the ones you no longer need with session_stop, longest idle first: ${named.join('; ')}${more}.` : 'Wait for other clients to end theirs, or raise DEBUGBRIDGE_MAX_SESSIONS.',
    );
  }

  /** Ended sessions beyond the last few are let go; a summary of each stays for a while. */
  retireEnded(): void {
    const ended = [...this.sessions.entries()].filter(([, e]) => e.session.endedAt !== undefined).sort(([, a], [, b]) => a.session.endedAt! - b.session.endedAt!);
    for (const [id, { session, client }] of ended.slice(0, Math.max(0, ended.length - KEPT_ENDED_SESSIONS))) {
      const snap = session.snapshot();
      this.sessions.delete(id);
      this.releasedCount.set(client.key, (this.releasedCount.get(client.key) ?? 0) + 1);
      this.summaries.set(id, {
        sessionId: session.id,
        client,
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
      const live = [...this.sessions.values()].map((e) => e.session).filter((s) => s.active);
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

  async disposeAll(): Promise<void> {
    clearInterval(this.idleTimer);
    this.idleTimer = undefined;
    await Promise.allSettled([...this.sessions.values()].map((e) => e.session.dispose()));
    await this.targets.disposeAll();
  }

  persist(): void {
    const live: StoredSession[] = [...this.sessions.values()]
      .filter((e) => e.session.active && !this.notRecoverable.has(e.session))
      .map(({ session: s, client }) => ({
        sessionId: s.id,
        ...(client.key ? { client } : {}),
        config: s.config,
        breakpoints: s.breakpoints.all(false).map(({ binding: _b, hits: _h, ...rest }) => rest),
        savedAt: Date.now(),
      }));
    this.store.save([...live, ...[...this.recoverable.values()].map((r) => r.stored)]);
  }
}

export function formatDuration(ms: number): string {
  const seconds = Math.round(ms / 1000);
  if (seconds < 120) return `${seconds} s`;
  const minutes = Math.round(seconds / 60);
  return minutes < 120 ? `${minutes} min` : `${Math.round(minutes / 60)} h`;
}
