import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LoggingMessageNotificationSchema, ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { connectThroughProxy, fixtureDir, sdkServer, toolText, waitFor, type SdkSession } from '../fixtures/mcp-server/harness.js';

const toolNames = async (s: SdkSession): Promise<string[]> => (await s.client.listTools()).tools.map((t) => t.name);
const whoami = async (s: SdkSession): Promise<number> => JSON.parse(toolText(await s.client.callTool({ name: 'whoami' }))).pid;

function listChangedCounter(s: SdkSession): { count: () => number } {
  let n = 0;
  s.client.setNotificationHandler(ToolListChangedNotificationSchema, () => void n++);
  return { count: () => n };
}

describe('reload proxy: file changes', () => {
  it('restarts the server on a change: the client gets list_changed and sees and calls the new tool', async () => {
    const fx = fixtureDir({ tools: ['greet'], version: 1 });
    const s = await connectThroughProxy(['--watch', fx.dir, '--debounce', '50', '--', process.execPath, sdkServer, fx.configFile]);
    try {
      const listChanged = listChangedCounter(s);
      expect(await toolNames(s)).toContain('greet');
      const firstPid = await whoami(s);
      await waitFor(() => s.stderr().includes('watching'), 10_000, 'the watcher');

      fx.write({ tools: ['greet', 'farewell'], version: 2 });
      await waitFor(() => listChanged.count() === 1, 15_000, 'tools/list_changed');

      expect(await toolNames(s)).toEqual(expect.arrayContaining(['greet', 'farewell']));
      expect(toolText(await s.client.callTool({ name: 'farewell' }))).toBe('farewell v2');
      expect(await whoami(s)).not.toBe(firstPid);
    } finally {
      await s.close();
    }
  });

  it('ignores editor temp files, .git and node_modules', async () => {
    const fx = fixtureDir({ tools: [], version: 1 });
    const s = await connectThroughProxy(['--watch', fx.dir, '--debounce', '50', '--', process.execPath, sdkServer, fx.configFile]);
    try {
      const listChanged = listChangedCounter(s);
      await waitFor(() => s.stderr().includes('watching'), 10_000, 'the watcher');
      mkdirSync(join(fx.dir, '.git'));
      mkdirSync(join(fx.dir, 'node_modules', 'pkg'), { recursive: true });
      for (const name of ['.tools.json.swp', 'tools.json~', '4913', 'debug.log', '.#tools.json', '.git/index', 'node_modules/pkg/index.js']) {
        writeFileSync(join(fx.dir, name), 'x');
      }
      await new Promise((r) => setTimeout(r, 600));
      expect(listChanged.count()).toBe(0);
      expect(s.stderr()).not.toContain('restarting');
    } finally {
      await s.close();
    }
  });

  it('a failed build keeps the old server running and tells the client; a good build reloads', async () => {
    const fx = fixtureDir({ tools: ['greet'], version: 1 });
    const buildOk = join(mkdtempSync(join(tmpdir(), 'reload-build-')), 'ok');
    const s = await connectThroughProxy([
      '--watch', fx.dir, '--debounce', '50', '--build', `echo building; test -f '${buildOk}'`,
      '--', process.execPath, sdkServer, fx.configFile,
    ]);
    try {
      const listChanged = listChangedCounter(s);
      const logs: string[] = [];
      s.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => void logs.push(`${n.params.level}: ${String(n.params.data)}`));
      const firstPid = await whoami(s);
      await waitFor(() => s.stderr().includes('watching'), 10_000, 'the watcher');

      fx.write({ tools: ['greet', 'farewell'], version: 2 });
      await waitFor(() => logs.some((l) => l.startsWith('error: the build failed')), 15_000, 'the build failure notification');
      expect(logs.find((l) => l.startsWith('error:'))).toContain('building');
      expect(await whoami(s)).toBe(firstPid);
      expect(await toolNames(s)).not.toContain('farewell');
      expect(listChanged.count()).toBe(0);

      writeFileSync(buildOk, '');
      fx.write({ tools: ['greet', 'farewell'], version: 3 });
      await waitFor(() => listChanged.count() === 1, 15_000, 'tools/list_changed');
      expect(toolText(await s.client.callTool({ name: 'farewell' }))).toBe('farewell v3');
    } finally {
      await s.close();
    }
  });
});
