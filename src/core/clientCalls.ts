/**
 * The client's calls as one quiet moment for the whole process: work that must not compete with
 * what the client waits for (a background check, a warm-up) waits for it. The stdio server's
 * transport feeds it (server/callActivity.ts); a server no transport feeds (driven in-process) has
 * calls that are always quiet.
 */
import { QuietMoments } from './quietMoments.js';

/** How long the calls must have paused before background work may take the CPU. */
export const CALLS_QUIET_MS = 300;

/**
 * One per process, though the entry point's bundle and the lazily loaded one each hold a copy of
 * this module (scripts/bundle-cli.mjs): the first copy to load puts it where the other finds it.
 */
const ONE_PER_PROCESS = Symbol.for('debugbridge.clientCalls');
const shared = globalThis as { [ONE_PER_PROCESS]?: QuietMoments };

export const clientCalls: QuietMoments = (shared[ONE_PER_PROCESS] ??= new QuietMoments(CALLS_QUIET_MS));
