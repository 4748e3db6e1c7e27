/** How many sessions may be live at once, and how long one may sit unused before it ends itself. */
export interface SessionLimits {
  /** Live (starting, running or stopped) sessions at most. */
  maxSessions: number;
  /** A live session no call touched for this long ends itself; 0 = never. */
  idleMs: number;
}

export const DEFAULT_MAX_SESSIONS = 32;
export const DEFAULT_IDLE_SECONDS = 30 * 60;

/** DEBUGBRIDGE_MAX_SESSIONS and DEBUGBRIDGE_IDLE_TIMEOUT (seconds, 0 = never), with their defaults. */
export function limitsFromEnv(env: NodeJS.ProcessEnv = process.env): SessionLimits {
  return {
    maxSessions: Math.max(1, Math.floor(number(env.DEBUGBRIDGE_MAX_SESSIONS, DEFAULT_MAX_SESSIONS))),
    idleMs: Math.max(0, number(env.DEBUGBRIDGE_IDLE_TIMEOUT, DEFAULT_IDLE_SECONDS) * 1000),
  };
}

function number(text: string | undefined, fallback: number): number {
  const value = text === undefined || text.trim() === '' ? NaN : Number(text);
  return Number.isFinite(value) ? value : fallback;
}
