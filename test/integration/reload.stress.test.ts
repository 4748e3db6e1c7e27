import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { minimalServer, pidsWithArg, RawProxy, waitFor, type RpcFrame } from '../fixtures/mcp-server/harness.js';

const restarts = 100;
const inFlight = 8;

describe('reload proxy under load', () => {
  it(`${restarts} restarts under continuous traffic: every request is answered exactly once`, async () => {
    const watched = mkdtempSync(join(tmpdir(), 'reload-stress-'));
    const proxy = RawProxy.start(['--watch', watched, '--', process.execPath, minimalServer, watched]);
    await proxy.initialize();

    const answers = new Map<number, RpcFrame[]>();
    let listChanged = 0;
    proxy.onFrame.push((frame) => {
      if (typeof frame.id === 'number') answers.set(frame.id, [...(answers.get(frame.id) ?? []), frame]);
      if (frame.method === 'notifications/tools/list_changed') listChanged++;
    });
    let sent = 0;
    let stop = false;
    const sendOne = (): void => {
      const id = ++sent;
      // Every 5th request takes a while, so restarts find requests in flight.
      const call = id % 5 === 0 ? { name: 'sleep', arguments: { ms: 20 } } : { name: 'echo', arguments: { text: `m${id}` } };
      proxy.send({ id, method: 'tools/call', params: call });
    };
    const traffic = (async () => {
      while (!stop) {
        while (sent - answers.size < inFlight) sendOne();
        await proxy.until(() => stop || sent - answers.size < inFlight, 15_000, 'answers to flow');
      }
    })();

    for (let i = 1; i <= restarts; i++) {
      proxy.child.kill('SIGUSR2');
      await proxy.until(() => listChanged === i, 15_000, `restart ${i}`);
    }
    stop = true;
    await traffic;
    await proxy.until(() => answers.size === sent, 15_000, 'the last answers');

    const failures: string[] = [];
    let errored = 0;
    for (let id = 1; id <= sent; id++) {
      const frames = answers.get(id) ?? [];
      if (frames.length !== 1) failures.push(`request ${id} answered ${frames.length} times`);
      const [frame] = frames;
      if (frame?.error) {
        errored++;
        if (frame.error.code !== -32603 || !/restarted .*may be retried/.test(frame.error.message)) failures.push(`request ${id}: ${JSON.stringify(frame.error)}`);
      } else if (frame && id % 5 !== 0 && JSON.stringify(frame.result) !== JSON.stringify({ content: [{ type: 'text', text: `m${id}` }] })) {
        failures.push(`request ${id} got ${JSON.stringify(frame.result)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(proxy.frames.filter((f) => f.id === 'init')).toHaveLength(1);
    expect(proxy.notStdoutFrames).toEqual([]);
    expect(listChanged).toBe(restarts);
    expect(sent).toBeGreaterThan(restarts * 5);
    console.log(`${sent} requests across ${restarts} restarts, ${errored} answered with -32603`);

    proxy.child.stdin!.end();
    expect(await proxy.exited()).toBe(0);
    await waitFor(() => pidsWithArg(watched).length === 0, 5_000, 'no server left');
  }, 90_000);
});
