import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { minimalServer, proxyCommand, RawProxy } from '../fixtures/mcp-server/harness.js';

describe('reload proxy: framing', () => {
  let proxy: RawProxy | undefined;
  afterEach(async () => {
    proxy?.child.stdin!.end();
    await proxy?.exited();
  });

  async function started(): Promise<RawProxy> {
    proxy = RawProxy.start(['--watch', mkdtempSync(join(tmpdir(), 'reload-framing-')), '--', process.execPath, minimalServer]);
    await proxy.initialize();
    return proxy;
  }

  it('forwards a line that is not JSON as it is, and the server answers it', async () => {
    const p = await started();
    p.send('{"jsonrpc": "2.0", "id": 5, "method": broken');
    await p.until(() => p.frames.find((f) => f.error?.code === -32700), 5_000, 'the parse error from the server');
    p.send({ id: 6, method: 'ping' });
    expect(await p.until(() => p.response(6), 5_000, 'the ping answer')).toMatchObject({ result: {} });
  });

  it('passes lines of several megabytes intact both ways', async () => {
    const p = await started();
    const text = 'ü'.repeat(1_500_000) + 'end';
    p.send({ id: 'big', method: 'tools/call', params: { name: 'echo', arguments: { text } } });
    const answer = await p.until(() => p.response('big'), 20_000, 'the big echo');
    expect((answer.result as { content: Array<{ text: string }> }).content[0]!.text).toBe(text);
    expect(p.notStdoutFrames).toEqual([]);
  });

  it('keeps ids of different types apart and its own log lines off stdout', async () => {
    const p = await started();
    p.send({ id: 1, method: 'tools/call', params: { name: 'echo', arguments: { text: 'number' } } });
    p.send({ id: '1', method: 'tools/call', params: { name: 'echo', arguments: { text: 'string' } } });
    await p.until(() => p.frames.filter((f) => f.id === 1 || f.id === '1').length === 2, 5_000, 'both answers');
    expect(JSON.stringify(p.response(1)?.result)).toContain('"number"');
    expect(JSON.stringify(p.response('1')?.result)).toContain('"string"');
    p.child.kill('SIGUSR2');
    await p.until(() => p.frames.some((f) => f.method === 'notifications/tools/list_changed'), 10_000, 'the restart');
    expect(p.notStdoutFrames).toEqual([]);
    expect(p.stderr).toContain('restarting the MCP server');
  });
});

describe('reload command line', () => {
  it('--help prints the usage on stdout', () => {
    const help = execFileSync(process.execPath, [...proxyCommand, '--help'], { encoding: 'utf8' });
    expect(help).toMatch(/^Usage: debugbridge reload \[options\] -- <server command>/);
    expect(help).toContain('--debounce');
  });

  it('a missing server command is a usage error (exit 2)', () => {
    const r = spawnSync(process.execPath, [...proxyCommand, '--watch', 'src'], { encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no server command');
  });
});
