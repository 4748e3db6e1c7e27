/**
 * An ASP.NET Core minimal API through the real MCP server: a request stopped in the repository shows
 * the service and the endpoint handler awaiting it, then the framework's request pipeline folded,
 * with the handler's own values; the request completes once the program goes on.
 */
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../fixtures/dotnet/markers.js';
import { requireRuntime } from '../support/runtimes.js';
import { stopActiveSessions } from '../support/sessions.js';

const dotnet = findDotnet();
const run = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

interface Frame {
  index: number;
  name: string;
  file?: string;
  line: number;
  async?: boolean;
}
interface Wait {
  sessionId: string;
  status: string;
  stop?: { frame: { name: string; line: number } };
}

describe.runIf(run)('.NET async: an ASP.NET Core request', () => {
  let client: McpTestClient;
  let depot: string;
  const repository = fixtureSource('depot', 'OrderRepository.cs');
  const service = fixtureSource('depot', 'OrderService.cs');
  const endpoints = fixtureSource('depot', 'OrderEndpoints.cs');
  const program = fixtureSource('depot', 'Program.cs');

  beforeAll(async () => {
    depot = buildFixture('depot');
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-dotnet-async-aspnet-')) } });
  });
  afterAll(async () => {
    await client?.close();
  });
  afterEach(() => stopActiveSessions(client));

  /** The depot on a free port with one breakpoint, once it listens. */
  async function launchDepot(file: string, line: number): Promise<{ sessionId: string; port: number }> {
    const port = await freePort();
    const launch = await client.call<Wait>('session_launch', { program: depot, args: ['--urls', `http://127.0.0.1:${port}`], breakpoints: [{ file, line }], timeoutMs: 60_000 });
    expect(launch.isError, launch.text).toBe(false);
    const { sessionId } = launch.structured;
    await waitForOutput(client, sessionId, 'depot listening');
    return { sessionId, port };
  }

  it('stopped in the repository, the stack shows the service and the endpoint handler awaiting it, then the pipeline', async () => {
    const { sessionId, port } = await launchDepot(repository.path, repository.line('repository'));

    const response = fetch(`http://127.0.0.1:${port}/orders/7`);
    const hit = await client.call<Wait>('breakpoint_wait', { sessionId, timeoutMs: 30_000 });
    expect(hit.structured.status, hit.text).toBe('stopped');
    expect(hit.structured.stop?.frame).toMatchObject({ name: 'Depot.OrderRepository.LoadAsync', line: repository.line('repository') });

    const stack = await client.call<{ frames: Frame[] }>('inspect_stack', { sessionId, count: 60 });
    const logical = stack.structured.frames.filter((f) => f.async);
    expect(logical.filter((f) => f.file).map((f) => [f.name, f.line])).toEqual([
      ['Depot.OrderService.SummarizeAsync', service.line('service-await')],
      ['Depot.OrderEndpoints.GetOrder', endpoints.line('handler-await')],
    ]);
    // Past the handler: the framework's request pipeline, awaiting too, folded as external code.
    expect(logical.at(-1)).toMatchObject({ name: '[External Code]', async: true });
    const folded = await client.call('inspect_stack', { sessionId });
    expect(folded.text).toMatch(/Depot\.OrderService\.SummarizeAsync \(OrderService\.cs:\d+\) \[async\]\n#\d+ Depot\.OrderEndpoints\.GetOrder \(OrderEndpoints\.cs:\d+\) \[async\]\n#\d+ \[External Code\]/);

    const handler = logical.find((f) => f.name === 'Depot.OrderEndpoints.GetOrder')!;
    const values = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', { sessionId, frameIndex: handler.index });
    expect(values.structured.variables).toContainEqual(expect.objectContaining({ name: 'id', value: '7' }));

    const go = await client.call<Wait>('execution_continue', { sessionId, wait: false });
    expect(go.isError, go.text).toBe(false);
    const answered = await response;
    expect(answered.status).toBe(200);
    expect(await answered.json()).toMatchObject({ id: 7, customer: 'Lyon Bikes', total: 802 });
  });

  it('stopped in an async lambda handler, names it in C# and shows its arguments and captured variables', async () => {
    const { sessionId, port } = await launchDepot(program.path, program.line('lambda-await'));

    const response = fetch(`http://127.0.0.1:${port}/orders/7/total`);
    const hit = await client.call<Wait>('breakpoint_wait', { sessionId, timeoutMs: 30_000 });
    // Its state machine is <<<Main>$>b__0_1>d, which read as that type's MoveNext, with `this` the closure.
    expect(hit.structured.stop?.frame).toMatchObject({ name: 'Program.<Main>$.<lambda>', line: program.line('lambda-await') });
    const values = await client.call<{ variables: { name: string; value: string }[] }>('inspect_variables', { sessionId });
    const names = values.structured.variables.map((v) => v.name);
    expect(names).not.toContain('this');
    expect(values.structured.variables).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'id', value: '7' }), expect.objectContaining({ name: 'currency', value: '"EUR"' })]));

    await client.call('execution_continue', { sessionId, wait: false });
    expect(await (await response).text()).toBe('802.0 EUR');
  });
});

async function waitForOutput(client: McpTestClient, sessionId: string, text: string): Promise<void> {
  for (let waited = 0; waited < 60_000; waited += 200) {
    const r = await client.call<{ output: string }>('session_output', { sessionId });
    if (r.structured.output.includes(text)) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`the program never printed "${text}"`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
