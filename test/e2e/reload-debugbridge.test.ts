/**
 * debugbridge under its own hot-reload proxy: a reload restarts the server without the client
 * noticing, and the session file brings the debugging session back with its breakpoints.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { CLI_PATH, McpTestClient } from '../../src/demo/mcpClient.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const program = fileURLToPath(new URL('../fixtures/e2e/python/loop.py', import.meta.url));
const hasDebugpy = ['/usr/bin/python3', 'python3'].some((py) => hasCommand(py, ['-c', 'import debugpy']));

describe.runIf(requireRuntime('python with debugpy', hasDebugpy))('debugbridge under debugbridge reload', () => {
  it('keeps the client connected across a reload and restarts the session with its breakpoints', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'dbb-reload-state-'));
    const watched = mkdtempSync(join(tmpdir(), 'dbb-reload-watch-'));
    const client = await McpTestClient.start({
      args: [CLI_PATH, 'reload', '--watch', watched, '--', process.execPath, CLI_PATH],
      env: { DEBUGBRIDGE_STATE_DIR: stateDir },
    });
    try {
      let listChanged = 0;
      client.client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        listChanged++;
      });
      const line = markerLine(program, 'BP:body');
      const first = await client.call<{ sessionId: string; stop?: { frame: { line: number } } }>('session_launch', {
        program,
        breakpoints: [{ file: program, line, condition: 'i == 4' }],
        waitForStop: true,
      });
      expect(first.structured.stop?.frame.line).toBe(line);

      process.kill(client.pid!, 'SIGUSR2'); // what a file change does, without the watcher's delay
      const deadline = Date.now() + 20_000;
      let recoverable: { sessionId: string; breakpoints: number }[] = [];
      while (Date.now() < deadline) {
        const list = await client.call<{ recoverable: { sessionId: string; breakpoints: number }[] }>('session_list');
        if (!list.isError && list.structured.recoverable?.length) {
          recoverable = list.structured.recoverable;
          break;
        }
        await new Promise((r) => setTimeout(r, 200));
      }
      expect(recoverable).toEqual([expect.objectContaining({ sessionId: first.structured.sessionId, breakpoints: 1 })]);
      expect(listChanged).toBeGreaterThanOrEqual(1);

      const again = await client.call<{ stop?: { locals?: { name: string; value: string }[] } }>('session_restart', {
        sessionId: first.structured.sessionId,
        waitForStop: true,
      });
      expect(again.isError, again.text).toBe(false);
      expect(again.structured.stop?.locals?.find((l) => l.name === 'i')?.value).toBe('4');
      await client.call('session_stop', {});
    } finally {
      await client.close();
    }
  });
});
