/**
 * The answer guards every tool shares, against a real MCP client over an in-memory link: the size
 * cap, and -32602 for params that do not fit a method's schema.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { CallToolResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { codeInvalidParams, defineTool, MAX_ANSWER_CHARS } from '../../src/server/toolKit.js';

async function connected() {
  const server = new McpServer({ name: 'test', version: '1' });
  defineTool(server, 'echo', { title: 'Echo', description: 'Answers as many characters as asked.', input: { chars: z.number() }, output: { text: z.string() } }, async ({ chars }) => {
    const text = 'x'.repeat(chars);
    return { text, data: { text } };
  });
  codeInvalidParams(server);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  const client = new Client({ name: 'test', version: '1' });
  await Promise.all([server.connect(serverSide), client.connect(clientSide)]);
  return client;
}

describe('tool answers', () => {
  it('are sent up to the size cap, and past it become RESULT_TOO_LARGE saying how to ask for less', async () => {
    const client = await connected();
    const fits = await client.callTool({ name: 'echo', arguments: { chars: 1000 } });
    expect(fits.isError).toBeFalsy();
    const big = await client.callTool({ name: 'echo', arguments: { chars: MAX_ANSWER_CHARS } });
    expect(big.isError).toBe(true);
    expect((big.content as { text: string }[])[0].text).toMatch(/^RESULT_TOO_LARGE: The answer of echo would be \d+ KB, over the 512 KB cap.*\nNext: Ask for less/s);
  });

  it('answer params that do not fit the method with -32602', async () => {
    const client = await connected();
    const error = await client.request({ method: 'tools/call', params: { name: 'echo', arguments: 7 as never } }, CallToolResultSchema).catch((e: { code: number }) => e);
    expect(error).toMatchObject({ code: -32602 });
  });
});
