/**
 * Issue 9, failures 7 and 8: ended sessions are let go (the last few stay readable), session_list
 * stays short, a program killed by a signal reads the same on every runtime, idle sessions end
 * themselves, and live sessions have a cap that names the ones to stop.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, leftAfter, line, runPids, sleep, startServer, type TestServer } from './support/server.js';

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const SPIN = {
  python: 'reliability/python/spin.py',
  node: 'reliability/node/spin.js',
};

describe('ended sessions', () => {
  it('are let go past the last 32; session_list stays short and counts the others', async () => {
    server = await startServer();
    for (let i = 0; i < 36; i++) {
      const r = await server.client.call('session_launch', { program: fixture('node/loop.js'), waitForStop: true });
      expect(r.structured.status, r.text).toBe('exited');
    }
    const list = await server.client.call<{ sessions: { sessionId: string }[]; unlisted: number; released: number }>('session_list');
    expect(list.structured.sessions.map((s) => s.sessionId)).toEqual(['node-36', 'node-35', 'node-34', 'node-33', 'node-32']);
    expect(list.structured).toMatchObject({ unlisted: 27, released: 4 });
    expect(list.text.length).toBeLessThan(1000);
    expect(list.text).toMatch(/27 more ended sessions not listed.*\n.*4 older ended sessions were let go/);
    const gone = await server.client.call('session_state', { sessionId: 'node-1' });
    expect(gone.text).toMatch(/^SESSION_NOT_FOUND: Session node-1 ended .*exited with code 0.* let go/s);
    expect(gone.text).toMatch(/session_launch/);
    const unlisted = await server.client.call('session_output', { sessionId: 'node-9' });
    expect(unlisted.text).toMatch(/total=45/);
  });

  for (const [runtime, program] of Object.entries(SPIN)) {
    it(`${runtime}: a program killed by SIGKILL is reported as such`, async () => {
      server = await startServer();
      const launched = await server.client.call<{ pid: number }>('session_launch', { program: fixture(program) });
      process.kill(launched.structured.pid, 'SIGKILL');
      const wait = await server.client.call<{ exitSignal?: string; exitCode?: number }>('breakpoint_wait', { timeoutMs: 10_000 });
      expect(wait.text).toMatch(/The program was killed by SIGKILL\./);
      expect(wait.structured).toMatchObject({ exitSignal: 'SIGKILL' });
      expect(wait.structured.exitCode).toBeUndefined();
      expect((await server.client.call('session_state', {})).text).toMatch(/The program was killed by SIGKILL\./);
    });
  }
});

describe('session limits', () => {
  it('ends a session left idle past DEBUGBRIDGE_IDLE_TIMEOUT, with a notification, and its processes', async () => {
    server = await startServer({ DEBUGBRIDGE_IDLE_TIMEOUT: '1' });
    const program = fixture(SPIN.python);
    const r = await server.client.call('session_launch', { program, breakpoints: [{ file: program, line: line(SPIN.python, 'tick') }], waitForStop: true });
    expect(r.structured.status, r.text).toBe('stopped');
    const run = await runPids(server);
    server.watch.sample();
    // Every process of the server's tree: the session's adapter (readied ahead of the launch), launcher, program.
    const pids = [...server.watch.seen];
    const deadline = Date.now() + 10_000;
    const idleNote = () => server!.client.logs.find((l) => JSON.stringify(l.data).includes('was idle'));
    while (!idleNote() && Date.now() < deadline) await sleep(50);
    expect(JSON.stringify(idleNote()?.data)).toMatch(/Session python-1 was idle for \d+ s and has ended \(its program was terminated\)/);
    expect((await server.client.call('session_state', {})).structured.state).toBe('terminated');
    expect(await leftAfter(server, [run], pids, 500)).toEqual([]);
  });

  it('refuses a session past DEBUGBRIDGE_MAX_SESSIONS, naming the ones to stop', async () => {
    server = await startServer({ DEBUGBRIDGE_MAX_SESSIONS: '2' });
    const program = fixture(SPIN.node);
    for (let i = 0; i < 2; i++) expect((await server.client.call('session_launch', { program })).isError).toBe(false);
    const refused = await server.client.call('session_launch', { program });
    expect(refused.text).toMatch(/^SESSION_LIMIT: 2 sessions are live, the most this server runs at once \(DEBUGBRIDGE_MAX_SESSIONS=2\)/);
    expect(refused.text).toMatch(/session_stop.*node-1 \(running, idle \d+ s, .*spin\.js\); node-2/s);
    await server.client.call('session_stop', { sessionId: 'node-1' });
    expect((await server.client.call('session_launch', { program })).isError).toBe(false);
  });
});
