/**
 * What a starting server loads before it answers tools/list: only the few modules that answer it from
 * the build-time catalog — no MCP SDK, no zod, no engine, no session code, no native addon — so the
 * first answer comes as soon as Node.js is up, in any folder (readying and the rest load after it).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_PATH, McpTestClient } from '../../src/demo/mcpClient.js';

const preload = fileURLToPath(new URL('../support/moduleLog/preload.mjs', import.meta.url));
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'dbb-cold-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The modules a server started in a folder holding `files` resolved before its tool list went out. */
async function loadedBeforeList(files: Record<string, string>): Promise<string[]> {
  const folder = mkdtempSync(join(scratch, 'project-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  const log = join(folder, '.modules');
  writeFileSync(log, '');
  const client = await McpTestClient.start({ args: ['--import', preload, CLI_PATH], cwd: folder, env: { MODULE_LOG: log, DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(scratch, 'state-')) } });
  try {
    // The loaded server took over: a call through the SDK answers.
    const listed = await client.call('session_list', {});
    expect(listed.isError, listed.text).toBe(false);
  } finally {
    await client.close();
  }
  const urls = [...new Set(readFileSync(log, 'utf8').split('\n').filter(Boolean))];
  return urls.map((url) => (url.startsWith('file:') ? relative(dist, fileURLToPath(url)) : url));
}

describe('server start → tools/list', () => {
  describe.each([
    ['no project', { 'notes.txt': 'nothing to debug\n' }],
    ['a Python project (readied after the list)', { 'main.py': 'print("hi")\n', 'pyproject.toml': '[project]\nname = "x"\n' }],
    ['a .NET project', { 'Shop.csproj': '<Project Sdk="Microsoft.NET.Sdk" />\n' }],
  ])('in a folder with %s', (_name, files) => {
    it('answers from the catalog with our own few modules and Node.js built-ins only', async () => {
      const loaded = await loadedBeforeList(files);
      // The log works: the entry point and the catalog's module are in it.
      expect(loaded).toEqual(expect.arrayContaining(['cli.js', 'server/stdioServer.js', 'server/toolCatalog.js']));
      const ours = loaded.filter((m) => !m.startsWith('node:'));
      expect(ours.filter((m) => m.includes('node_modules') || m.endsWith('.node') || !/^(server\/)?\w+\.js$/.test(m))).toEqual([]);
      expect(ours.filter((m) => m.startsWith('server/') && !['server/stdioServer.js', 'server/toolCatalog.js', 'server/lineTransport.js'].includes(m))).toEqual([]);
    });
  });
});
