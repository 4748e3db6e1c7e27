/**
 * Issue 9, failure 1 and the JSON-RPC code of failure 7: arguments that used to hang the server,
 * flood its memory or read what it should not. Each call must answer at once with a stable code.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, line, startServer, type TestServer } from './support/server.js';

const ANSWER_WITHIN_MS = 10_000;
const work = mkdtempSync(join(tmpdir(), 'dbb-rel-inputs-'));
const fifo = join(work, 'fifo');
execFileSync('mkfifo', [fifo]);

describe('hostile path arguments', () => {
  let server: TestServer;
  const call = (tool: string, args: Record<string, unknown>) => server.client.call(tool, args, { timeoutMs: ANSWER_WITHIN_MS });

  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('inspect_source refuses devices, a FIFO and a folder at once, and the server keeps answering', async () => {
    const cases: [string, RegExp][] = [
      ['/dev/zero', /character device/],
      ['/dev/urandom', /character device/],
      [fifo, /FIFO/],
      [work, /folder/],
    ];
    for (const [file, kind] of cases) {
      const r = await call('inspect_source', { file, line: 1 });
      expect(r.isError, file).toBe(true);
      expect(r.text, file).toMatch(/^INVALID_ARGUMENT: /);
      expect(r.text, file).toMatch(kind);
    }
    expect((await call('session_list', {})).isError).toBe(false);
  });

  it('inspect_source reads files up to a size cap', async () => {
    const big = join(work, 'big.py');
    writeFileSync(big, `${'x = 1\n'.repeat(1_500_000)}`); // 9 MB
    const r = await call('inspect_source', { file: big, line: 1 });
    expect(r.text).toMatch(/^INVALID_ARGUMENT: .*up to 8 MB/s);
    const small = await call('inspect_source', { file: fixture('reliability/python/spin.py'), line: line('reliability/python/spin.py', 'tick'), before: 0, after: 0 });
    expect(small.isError).toBe(false);
    expect(small.text).toMatch(/ticks \+= 1/);
  });

  it('session_launch refuses a FIFO as the program and a device as a breakpoint file, starting nothing', async () => {
    const asProgram = await call('session_launch', { program: fifo, language: 'python', timeoutMs: 5000 });
    expect(asProgram.text).toMatch(/^INVALID_ARGUMENT: The program .* is a FIFO/);
    const zeroBreakpoint = await call('session_launch', { program: fixture('reliability/python/spin.py'), breakpoints: [{ file: '/dev/zero', line: 1 }], timeoutMs: 5000 });
    expect(zeroBreakpoint.text).toMatch(/^INVALID_ARGUMENT: The breakpoint file \/dev\/zero is a character device/);
    expect((await call('session_list', {})).text).toMatch(/No sessions/);
  });

  it('answers arguments that are not an object with -32602 (invalid params)', async () => {
    for (const bad of [5, 'text', [1, 2], null]) {
      const error = await server.client.client
        .request({ method: 'tools/call', params: { name: 'session_list', arguments: bad as never } }, CallToolResultSchema)
        .then(() => undefined, (e: { code?: number }) => e);
      expect(error?.code, JSON.stringify(bad)).toBe(-32602);
    }
  });
});

describe('DEBUGBRIDGE_ROOTS', () => {
  const root = join(work, 'root');
  const outside = join(work, 'outside');
  mkdirSync(root);
  mkdirSync(outside);
  const inside = join(root, 'spin.py');
  copyFileSync(fixture('reliability/python/spin.py'), inside);
  copyFileSync(fixture('reliability/python/spin.py'), join(outside, 'spin.py'));
  symlinkSync('/etc/passwd', join(root, 'passwd-link'));
  let server: TestServer;
  const call = (tool: string, args: Record<string, unknown>) => server.client.call(tool, args, { timeoutMs: 30_000 });

  beforeAll(async () => {
    server = await startServer({ DEBUGBRIDGE_ROOTS: root });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses every path argument outside the roots, links followed', async () => {
    const refused: [string, Record<string, unknown>][] = [
      ['inspect_source', { file: '/etc/passwd', line: 1 }],
      ['inspect_source', { file: join(root, 'passwd-link'), line: 1 }],
      ['inspect_source', { file: `${root}/../outside/spin.py`, line: 1 }],
      ['session_launch', { program: join(outside, 'spin.py') }],
      ['session_launch', { program: inside, cwd: outside }],
      ['session_launch', { program: inside, breakpoints: [{ file: join(outside, 'spin.py'), line: 5 }] }],
      ['session_launch', { program: inside, pythonPath: '/usr/bin/python3' }],
      ['debug_probe', { program: join(outside, 'spin.py'), breakpoints: [{ file: join(outside, 'spin.py'), line: 5 }] }],
    ];
    for (const [tool, args] of refused) {
      const r = await call(tool, tool === 'inspect_source' ? args : { ...args, cwd: args.cwd ?? root });
      expect(r.text, `${tool} ${JSON.stringify(args)}`).toMatch(/^PATH_NOT_ALLOWED: .*DEBUGBRIDGE_ROOTS/s);
    }
    expect((await call('session_list', {})).text).toMatch(/No sessions/);
  });

  it('works as before under the roots, and a running session cannot reach outside them', async () => {
    const source = await call('inspect_source', { file: inside, line: 1 });
    expect(source.isError).toBe(false);
    const launched = await call('session_launch', { program: 'spin.py', cwd: root });
    expect(launched.isError, launched.text).toBe(false);
    const outsideBreakpoint = await call('breakpoint_set', { file: join(outside, 'spin.py'), line: 5 });
    expect(outsideBreakpoint.text).toMatch(/^PATH_NOT_ALLOWED: /);
    const runTo = await call('execution_run_to', { file: '/etc/passwd', line: 1, timeoutMs: 1000 });
    expect(runTo.text).toMatch(/^PATH_NOT_ALLOWED: /);
    await call('session_stop', {});
  });
});
