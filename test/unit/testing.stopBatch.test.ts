/**
 * A test run's stops that come at the same moment (debugpy reports every thread that stopped) are
 * judged together: a continue of a thread that already runs again is never answered by debugpy,
 * which left a pytest run hanging after a failure while a thread pool's worker raised.
 */
import { describe, expect, it } from 'vitest';
import { StopBatch } from '../../src/testing/stopBatch.js';

type Stop = { threadId: number; failure?: boolean };

function batch(resumesAll: boolean, shownBefore = false) {
  const calls: string[] = [];
  let release!: () => void;
  const firstDecision = new Promise<void>((resolve) => (release = resolve));
  let decided = 0;
  const stops = new StopBatch<Stop>({
    decide: async (event) => {
      if (decided++ === 0) await firstDecision;
      return event.failure ? event : undefined;
    },
    show: (event) => calls.push(`show ${event.threadId}`),
    passOn: async (threadId) => void calls.push(`continue ${threadId}`),
    stopShown: () => shownBefore,
    resumesAll: () => resumesAll,
  });
  const settled = async () => {
    release();
    for (let i = 0; i < 10; i++) await new Promise((resolve) => setImmediate(resolve));
    return calls;
  };
  return { stops, settled };
}

describe('a test run passes stops on', () => {
  it('once for threads that stopped together, where one continue resumes them all', async () => {
    const { stops, settled } = batch(true);
    stops.add({ threadId: 18 });
    stops.add({ threadId: 17 });
    expect(await settled()).toEqual(['continue 18']);
  });

  it('not at all when a thread stopped with them is shown: the program stays there', async () => {
    const { stops, settled } = batch(true);
    stops.add({ threadId: 18 });
    stops.add({ threadId: 17, failure: true });
    expect(await settled()).toEqual(['show 17']);
  });

  it('not while a stop shown before is where the user looks', async () => {
    const { stops, settled } = batch(true, true);
    stops.add({ threadId: 3 });
    expect(await settled()).toEqual([]);
  });

  it('once per thread where a continue resumes only the thread named (Node targets)', async () => {
    const { stops, settled } = batch(false);
    stops.add({ threadId: 1 });
    stops.add({ threadId: 2, failure: true });
    stops.add({ threadId: 3 });
    expect(await settled()).toEqual(['show 2', 'continue 1', 'continue 3']);
  });
});
