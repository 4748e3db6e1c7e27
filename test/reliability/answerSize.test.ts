/**
 * Issue 9, failure 4: an answer about a huge value stays within its size cap and time budget, says
 * what it left out and how to read it — and reading it that way works.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, line, startServer, type TestServer } from './support/server.js';

interface Variables {
  variables: { name: string; path: string; level: number }[];
  more: boolean;
  cut?: { reason: 'size' | 'time'; nextStart?: number; unexpanded: string[] };
}

/** The inspector's own cap (64 K characters of structured content, about as much text); far under the 512 KB answer cap. */
const ANSWER_CHARS = 200_000;

const RUNTIMES = [
  { name: 'node', program: 'reliability/node/wide.js' },
  { name: 'python', program: 'reliability/python/wide.py' },
];

for (const runtime of RUNTIMES) {
  describe(`${runtime.name}: inspect_variables on a value of millions of entries`, () => {
    let server: TestServer;
    beforeAll(async () => {
      server = await startServer();
      const program = fixture(runtime.program);
      const r = await server.client.call('session_launch', { program, breakpoints: [{ file: program, line: line(runtime.program, 'values') }], waitForStop: true, timeoutMs: 60_000 });
      expect(r.structured.status, r.text).toBe('stopped');
    });
    afterAll(async () => {
      await server?.close();
    });

    it('answers within its caps, says where it stopped, and going on from there works', async () => {
      const first = await server.client.call<Variables>('inspect_variables', { path: 'nested', depth: 4, count: 500 });
      expect(first.isError, first.text.slice(0, 300)).toBe(false);
      expect(first.text.length + JSON.stringify(first.structured).length).toBeLessThan(ANSWER_CHARS);
      const cut = first.structured.cut!;
      expect(cut).toBeDefined();
      expect(first.text).toMatch(/answer cut at its (size cap|time budget)/);
      expect(first.text).toContain(`inspect_variables {"path":"nested","depth":4,"count":500,"start":${cut.nextStart}}`);
      const shown = first.structured.variables.filter((v) => v.level === 0);
      expect(cut.nextStart).toBe(shown.length);

      const next = await server.client.call<Variables>('inspect_variables', { path: 'nested', depth: 1, start: cut.nextStart, count: 3 });
      expect(next.structured.variables.map((v) => v.name)).toEqual([0, 1, 2].map((i) => String(cut.nextStart! + i)));
      if (cut.unexpanded.length) {
        const deeper = await server.client.call<Variables>('inspect_variables', { path: cut.unexpanded[0], depth: 1, count: 5 });
        expect(deeper.isError, deeper.text).toBe(false);
        expect(deeper.structured.variables.length).toBeGreaterThan(0);
      }
    });
  });
}
