/**
 * How hard the reliability suite pushes. `npm test` runs a CI-sized pass (a few minutes at most);
 * `npm run test:reliability` sets DEBUGBRIDGE_RELIABILITY=full for the counts the issue asks for.
 */
export const FULL = process.env.DEBUGBRIDGE_RELIABILITY === 'full';

export const SCALE = {
  /** Fuzzed tool calls, seeded and repeatable. */
  fuzzCalls: FULL ? 10_000 : 1_200,
  /** Workflows in a row in the soak, and the one after which heap growth is measured. */
  soakWorkflows: FULL ? 500 : 50,
  soakBaseline: FULL ? 100 : 34,
  /** Sessions live at once, half Python, half Node. */
  concurrentSessions: FULL ? 32 : 8,
  /** Every kill scenario (moment × action) with both runtimes, or one case of each kind. */
  killEveryPair: FULL,
  /** For the tests that run many calls (fuzz, soak, concurrency). */
  longTestTimeoutMs: FULL ? 1_800_000 : 300_000,
};

/** The fuzz seed: fixed so a failure can be replayed; DEBUGBRIDGE_FUZZ_SEED picks another run. */
export const FUZZ_SEED = Number(process.env.DEBUGBRIDGE_FUZZ_SEED ?? 20240909);
