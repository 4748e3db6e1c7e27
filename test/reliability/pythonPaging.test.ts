/**
 * Issue 9, failure 5: paging reaches every item of a large Python container (pydevd shows a list's
 * first 100 items and a dict's or set's first 500), and the paths it answers evaluate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, line, startServer, type TestServer } from './support/server.js';

interface Variables {
  variables: { name: string; value: string; path: string }[];
  more: boolean;
}

const PROGRAM = 'reliability/python/wide.py';

describe('python paging through large containers', () => {
  let server: TestServer;
  // maxChars above the default budget: these pages are meant to be whole (500 members).
  const page = (path: string, start: number, count: number) => server.client.call<Variables>('inspect_variables', { path, start, count, maxChars: 100_000 });

  beforeAll(async () => {
    server = await startServer();
    const program = fixture(PROGRAM);
    const r = await server.client.call('session_launch', { program, breakpoints: [{ file: program, line: line(PROGRAM, 'values') }], waitForStop: true, timeoutMs: 60_000 });
    expect(r.structured.status, r.text).toBe('stopped');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('reaches items anywhere in a list of 1,000,000, and its end', async () => {
    for (const start of [0, 99, 100, 102, 500_000, 999_997]) {
      const r = await page('big_list', start, 3);
      expect(r.structured.variables.map((v) => [v.name, v.value]), `start ${start}`).toEqual([0, 1, 2].map((i) => [String(start + i), String(start + i)]));
    }
    const end = await page('big_list', 999_999, 5);
    expect(end.structured.variables.map((v) => v.name)).toEqual(['999999', 'len()']);
    expect(end.structured.more).toBe(false);
  });

  it('reaches every key of a dict of 100,000, with paths that evaluate', async () => {
    const r = await page('big_dict', 1000, 3);
    expect(r.structured.variables.map((v) => v.name)).toEqual(["'k1000'", "'k1001'", "'k1002'"]);
    expect(r.structured.more).toBe(true);
    const last = await page('big_dict', 99_999, 5);
    expect(last.structured.variables.map((v) => v.name)).toEqual(["'k99999'", 'len()']);
    const evaluated = await server.client.call<{ value: string }>('inspect_evaluate', { expression: r.structured.variables[2].path });
    expect(evaluated.structured.value).toBe('1002');
    const listItem = await page('big_list', 123_456, 1);
    expect((await server.client.call<{ value: string }>('inspect_evaluate', { expression: listItem.structured.variables[0].path })).structured.value).toBe('123456');
  });

  it('pages through a set of 2,000 in pages of 500 and sees every member once', async () => {
    const seen: string[] = [];
    for (let start = 0, more = true; more; start += 500) {
      const r = await page('big_set', start, 500);
      seen.push(...r.structured.variables.filter((v) => v.name !== 'len()').map((v) => v.value));
      more = r.structured.more;
    }
    expect(seen).toHaveLength(2000);
    expect(new Set(seen).size).toBe(2000);
  });
});
