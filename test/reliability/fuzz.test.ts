/**
 * Seeded fuzzed calls across every tool, several in flight at once: every call is answered, the
 * server never crashes, nothing but JSON-RPC reaches stdout, errors carry a stable code, and no
 * process is left once the client goes.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Fuzzer, type JsonSchema } from './support/fuzzArguments.js';
import { RawClient, type RpcAnswer } from './support/rawClient.js';
import { FUZZ_SEED, SCALE } from './support/scale.js';
import { aliveAfter, fixture, ProcessWatch } from './support/server.js';

const IN_FLIGHT = 6;
/** A call answers within its own wait (at most a few seconds here) plus the server's 60 s budget. */
const ANSWER_WITHIN_MS = 90_000;

describe('fuzzed calls', () => {
  it(`${SCALE.fuzzCalls} seeded calls (seed ${FUZZ_SEED}): all answered, no crash, stdout clean, nothing left`, async () => {
    const client = await RawClient.start({ DEBUGBRIDGE_MAX_SESSIONS: '6' });
    const watch = new ProcessWatch(client.pid, 50);
    const listed = await client.request('tools/list', {}, 60_000);
    const tools = (listed.result as unknown as { tools: { name: string; inputSchema: JsonSchema }[] }).tools;
    const work = mkdtempSync(join(tmpdir(), 'dbb-rel-fuzz-'));
    execFileSync('mkfifo', [join(work, 'fifo')]);
    const sessionIds = new Set<string>();
    const fuzzer = new Fuzzer(FUZZ_SEED, {
      tools,
      programs: [
        'e2e/python/loop.py', 'e2e/python/only_line.py', 'e2e/python/crash.py', 'e2e/python/workflow.py', 'reliability/python/spin.py',
        'node/loop.js', 'node/only_line.js', 'node/crash.js', 'node/workflow.js', 'reliability/node/spin.js',
      ].map(fixture),
      hostilePaths: ['/dev/zero', '/dev/urandom', '/etc/shadow', join(work, 'fifo'), work, '/no/such/file.py', 'relative/x.js', '', '.', `/${'a'.repeat(4000)}`, '/proc/self/mem'],
      cwd: fixture('.'),
      sessionIds: () => [...sessionIds].slice(-12),
    });

    const outcomes = { calls: 0, results: 0, toolErrors: 0, rpcErrors: new Map<number, number>(), unanswered: [] as string[], uncoded: [] as string[] };
    /** Calls that did what they were asked, by tool: the fuzz reaches the runtimes, not only the schemas. */
    const succeeded = new Map<string, number>();
    const record = (what: string, answer: RpcAnswer & { unanswered?: boolean }) => {
      if (answer.result && !answer.result.isError) succeeded.set(what.split(' ')[0], (succeeded.get(what.split(' ')[0]) ?? 0) + 1);
      if (answer.unanswered) return outcomes.unanswered.push(what);
      if (answer.error) return outcomes.rpcErrors.set(answer.error.code, (outcomes.rpcErrors.get(answer.error.code) ?? 0) + 1);
      outcomes.results++;
      const id = answer.result?.structuredContent?.sessionId;
      if (typeof id === 'string') sessionIds.add(id);
      if (answer.result?.isError) {
        outcomes.toolErrors++;
        const text = answer.result.content?.[0]?.text ?? '';
        if (!/^[A-Z_]+: /.test(text) || /^INTERNAL: /.test(text)) outcomes.uncoded.push(`${what} → ${text.slice(0, 300)}`);
        if (process.env.FUZZ_DEBUG && what.startsWith(process.env.FUZZ_DEBUG)) console.log(what.slice(0, 300), '→', text.slice(0, 160));
      }
    };

    let issued = 0;
    const worker = async () => {
      while (issued < SCALE.fuzzCalls && !client.exit) {
        const step = fuzzer.next();
        if (step.kind === 'line') {
          // Broken lines among the calls; they do not count as calls.
          client.writeLine(step.line);
          continue;
        }
        issued++;
        outcomes.calls++;
        const what = `${step.tool} ${JSON.stringify(step.args)?.slice(0, 200)}`;
        record(what, await client.request('tools/call', { name: step.tool, arguments: step.args }, ANSWER_WITHIN_MS));
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, worker));

    // Still serving after all of it: end every live session, then let the client go.
    const list = await client.request('tools/call', { name: 'session_list', arguments: {} }, ANSWER_WITHIN_MS);
    const live = (list.result?.structuredContent?.sessions as { sessionId: string; state: string }[] | undefined) ?? [];
    for (const s of live.filter((x) => ['initializing', 'running', 'stopped'].includes(x.state))) {
      record('session_stop', await client.request('tools/call', { name: 'session_stop', arguments: { sessionId: s.sessionId } }, ANSWER_WITHIN_MS));
    }
    watch.sample();
    await client.close();
    watch.stop();

    const summary = { ...outcomes, rpcErrors: Object.fromEntries(outcomes.rpcErrors) };
    console.log(`fuzz: ${JSON.stringify({ ...summary, unanswered: summary.unanswered.length, uncoded: summary.uncoded.length, succeeded: Object.fromEntries(succeeded) })}`);
    expect(outcomes.unanswered).toEqual([]);
    expect(client.exit?.signal ?? null, client.stderr.slice(-2000)).toBeNull();
    expect(client.exit?.code).toBe(0);
    expect(client.stdoutViolations).toEqual([]);
    expect(client.stderr).not.toMatch(/uncaught|unhandled/i);
    expect(outcomes.uncoded).toEqual([]);
    expect([...outcomes.rpcErrors.keys()].filter((code) => code !== -32602)).toEqual([]);
    expect(await aliveAfter(watch.seen, 1000)).toEqual([]);
  }, SCALE.longTestTimeoutMs);
});
