import { describe, expect, it } from 'vitest';
import { classify, errorResponse, idKey, parseLine } from '../../src/reload/jsonRpc.js';
import { LineSplitter } from '../../src/reload/lineSplitter.js';
import { RestartQueue } from '../../src/reload/restartQueue.js';

function split(chunks: string[]): string[] {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line.toString('utf8')));
  for (const chunk of chunks) splitter.push(Buffer.from(chunk));
  splitter.end();
  return lines;
}

describe('LineSplitter', () => {
  it('joins lines split across chunks and splits chunks holding several lines', () => {
    expect(split(['{"a":', '1}\n{"b"', ':2}\n{"c":3}\n'])).toEqual(['{"a":1}', '{"b":2}', '{"c":3}']);
  });

  it('keeps a \\r, skips blank lines, and hands on a last line without its newline', () => {
    expect(split(['one\r\n', '\n  \n', 'two'])).toEqual(['one\r', 'two']);
  });

  it('keeps multi-byte characters cut between chunks intact', () => {
    const bytes = Buffer.from('"ü€"\n');
    const lines: string[] = [];
    const splitter = new LineSplitter((line) => lines.push(line.toString('utf8')));
    for (const byte of bytes) splitter.push(Buffer.from([byte]));
    expect(lines).toEqual(['"ü€"']);
  });
});

describe('JSON-RPC classification', () => {
  it('tells requests, notifications and responses apart', () => {
    expect(classify({ jsonrpc: '2.0', id: 1, method: 'tools/list' })).toMatchObject({ kind: 'request', id: 1 });
    expect(classify({ jsonrpc: '2.0', method: 'notifications/initialized' })).toMatchObject({ kind: 'notification' });
    expect(classify({ jsonrpc: '2.0', id: 'a', result: {} })).toMatchObject({ kind: 'response', id: 'a' });
    expect(classify({ jsonrpc: '2.0', id: null, error: { code: -32700 } })).toMatchObject({ kind: 'response', id: null });
    expect(classify(42)).toEqual({ kind: 'other' });
  });

  it('reads batches, and nothing from a line that is not JSON', () => {
    expect(parseLine(Buffer.from('[{"id":1,"method":"a"},{"method":"b"}]')).map((m) => m.kind)).toEqual(['request', 'notification']);
    expect(parseLine(Buffer.from('{oops'))).toEqual([]);
  });

  it('keys ids by type, and builds -32603 answers', () => {
    expect(idKey(1)).not.toBe(idKey('1'));
    expect(JSON.parse(errorResponse(7, -32603, 'gone', { reason: 'crashed' }).toString())).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message: 'gone', data: { reason: 'crashed' } },
    });
  });
});

describe('RestartQueue', () => {
  it('holds lines in order within its bounds', () => {
    const queue = new RestartQueue({ maxMessages: 2, maxBytes: 10 });
    expect(queue.push(Buffer.from('aaaa'))).toBe(true);
    expect(queue.push(Buffer.from('bbbbbbbbb'))).toBe(false);
    expect(queue.push(Buffer.from('bb'))).toBe(true);
    expect(queue.push(Buffer.from('c'))).toBe(false);
    expect(queue.drain().map(String)).toEqual(['aaaa', 'bb']);
    expect(queue.size).toBe(0);
  });
});
