import { McpError, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectThroughProxy, fixtureDir, sdkServer, toolText, waitFor } from '../fixtures/mcp-server/harness.js';

async function rejection(promise: Promise<unknown>): Promise<McpError> {
  const outcome = await promise.then(
    (value) => new Error(`expected a rejection, got ${JSON.stringify(value)}`),
    (e: unknown) => e,
  );
  if (!(outcome instanceof McpError)) throw outcome;
  return outcome;
}

describe('reload proxy: crashes', () => {
  it('a crash fails the pending requests with -32603 and the exit code, and the server comes back', async () => {
    const fx = fixtureDir({ tools: [] });
    const s = await connectThroughProxy(['--watch', fx.dir, '--', process.execPath, sdkServer, fx.configFile]);
    try {
      let listChanged = 0;
      s.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void listChanged++);
      const firstPid = JSON.parse(toolText(await s.client.callTool({ name: 'whoami' }))).pid;

      const slow = s.client.callTool({ name: 'sleep', arguments: { ms: 10_000 } });
      const crash = s.client.callTool({ name: 'crash', arguments: { code: 3, delayMs: 100 } });
      for (const error of [await rejection(slow), await rejection(crash)]) {
        expect(error.code).toBe(-32603);
        expect(error.message).toMatch(/exited with code 3 .*may be retried/);
      }

      const back = JSON.parse(toolText(await s.client.callTool({ name: 'whoami' })));
      expect(back.pid).not.toBe(firstPid);
      await waitFor(() => listChanged === 1, 5_000, 'tools/list_changed after the crash');
      expect(s.stderr()).toMatch(/exited with code 3; starting it again in 250 ms/);
    } finally {
      await s.close();
    }
  });

  it('stops restarting after 5 crashes in a row, answers why, and tries again on the next file change', async () => {
    const fx = fixtureDir({ tools: ['greet'], version: 1 });
    const s = await connectThroughProxy(['--watch', fx.dir, '--debounce', '50', '--', process.execPath, sdkServer, fx.configFile]);
    try {
      await s.client.listTools();
      await waitFor(() => s.stderr().includes('watching'), 10_000, 'the watcher');

      fx.write({ crashOnStart: true });
      await waitFor(() => s.stderr().includes('stopped restarting'), 30_000, 'the proxy to give up');
      // 5 in a row; one more when the watcher saw the write as two changes (the count starts again).
      expect(s.stderr().match(/crashing on start/g)!.length).toBeGreaterThanOrEqual(5);
      const refused = await rejection(s.client.callTool({ name: 'greet' }));
      expect(refused.code).toBe(-32603);
      expect(refused.message).toMatch(/not running: it exited with code 7, its 5th crash within 60 s.*next file change/);

      fx.write({ tools: ['greet'], version: 2 });
      await waitFor(() => /was restarted \(.*tools\.json changed\) in \d+ ms/.test(s.stderr()), 10_000, `the reload; stderr:\n${s.stderr()}`);
      expect(toolText(await s.client.callTool({ name: 'greet' }))).toBe('greet v2');
    } finally {
      await s.close();
    }
  });
});
