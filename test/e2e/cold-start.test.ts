/**
 * What a starting server loads before it answers tools/list: only dist/cli.cjs, the entry point bundled
 * with the few modules that answer from the build-time catalog (scripts/bundle-cli.mjs) — no ES module
 * loader, no MCP SDK, no zod, no engine, no session code, no native addon — so the first answer comes
 * as soon as Node.js is up, in any folder (readying and the rest load after it, from dist/lazy.cjs).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { CLI_PATH } from '../../src/demo/mcpClient.js';

const preload = fileURLToPath(new URL('../support/moduleLog/preload.mjs', import.meta.url));
const dist = fileURLToPath(new URL('../../dist/', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'dbb-cold-start-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * The modules a server started in a folder holding `files` resolved before its tool list went out.
 * initialize, initialized and tools/list go out together, as a quick client sends them (the SDK's
 * client waits for each answer: on a loaded machine the server's fallback load could start in
 * between and blur what the list itself needs); then a tools/call shows the loaded server answers.
 */
async function loadedBeforeList(files: Record<string, string>): Promise<string[]> {
  const folder = mkdtempSync(join(scratch, 'project-'));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(folder, name), text);
  const log = join(folder, '.modules');
  writeFileSync(log, '');
  const server = spawn(process.execPath, ['--import', preload, CLI_PATH], {
    cwd: folder,
    env: { ...process.env, MODULE_LOG: log, DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(scratch, 'state-')) },
    stdio: ['pipe', 'pipe', 'ignore'],
  });
  const answers = new Map<number, Record<string, unknown>>();
  const answered = (id: number) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      const look = () => (answers.has(id) ? resolve(answers.get(id)!) : server.exitCode !== null ? reject(new Error('the server ended')) : setTimeout(look, 20));
      look();
    });
  let pending = '';
  server.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let i = pending.indexOf('\n'); i >= 0; i = pending.indexOf('\n')) {
      const message = JSON.parse(pending.slice(0, i)) as { id?: number };
      pending = pending.slice(i + 1);
      if (typeof message.id === 'number') answers.set(message.id, message);
    }
  });
  const send = (...messages: object[]) => server.stdin.write(messages.map((m) => `${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`).join(''));
  try {
    send(
      { id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cold-start test', version: '1' } } },
      { method: 'notifications/initialized' },
      { id: 2, method: 'tools/list' },
    );
    expect((await answered(2)).result).toHaveProperty('tools');
    send({ id: 3, method: 'tools/call', params: { name: 'session_list', arguments: {} } });
    expect((await answered(3)).result).toHaveProperty('content');
  } finally {
    server.stdin.end();
    await new Promise((resolve) => (server.exitCode !== null ? resolve(undefined) : server.once('exit', resolve)));
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
    it('answers from the catalog with one bundled CommonJS file and Node.js built-ins only', async () => {
      const loaded = await loadedBeforeList(files);
      // The log works: it saw the entry point and the built-ins it requires.
      expect(loaded).toEqual(expect.arrayContaining(['cli.cjs', 'node:fs']));
      // No ES module of ours (no ES module loader), no package, no native addon before the list.
      expect(loaded.filter((m) => !m.startsWith('node:'))).toEqual(['cli.cjs']);
      // node:crypto alone took longer to load than the rest of a cold start.
      expect(loaded).not.toContain('node:crypto');
    });
  });
});
