/**
 * Test discovery from a Microsoft.Testing.Platform program in its server mode, the JSON-RPC
 * protocol IDEs use: we listen, the program (`--server --client-port N`) connects, and a
 * `testing/discoverTests` request answers through `testing/testUpdates/tests` notifications, one
 * node per test with its uid (what `--filter-uid` runs), display name, type and source place. Unlike
 * `--list-tests` (display names only) it tells each case of a parametrised test apart by a uid.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Socket } from 'node:net';
import { createMessageConnection, SocketMessageReader, SocketMessageWriter } from 'vscode-jsonrpc/node';
import { signalGroup, spawnGroup } from '../core/processGroup.js';

export interface PlatformTest {
  uid: string;
  displayName: string;
  /** The class, namespace first (nested classes joined by `+`). */
  type?: string;
  file?: string;
  line?: number;
}

interface TestNodeChange {
  node?: Record<string, unknown>;
}

export interface DiscoveryFailure {
  exitCode: number | undefined;
  output: string;
}

const OUTPUT_KEPT_CHARS = 20_000;

/**
 * Starts the program (`command args… --server --client-port N`), discovers its tests and lets it
 * exit. Rejects with a DiscoveryFailure when it ends before answering (a build error, a crash).
 */
export async function discoverPlatformTests(command: string, args: string[], cwd: string, env: Record<string, string>, timeoutMs: number, signal?: AbortSignal): Promise<PlatformTest[]> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  // The program `dotnet run` builds and starts is in its group: it ends with it.
  const child = spawnGroup(command, [...args, '--server', '--client-port', String(port)], { cwd, env: { ...process.env, ...env } });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString('utf8')).slice(-OUTPUT_KEPT_CHARS));
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  const exited = new Promise<number | undefined>((resolve) => child.once('close', (code) => resolve(code ?? undefined)));
  const ended = exited.then((exitCode) => Promise.reject<never>({ exitCode, output } satisfies DiscoveryFailure));
  ended.catch(() => {});
  let socket: Socket | undefined;
  const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), timeoutMs);
  const abort = () => signalGroup(child, 'SIGKILL');
  signal?.addEventListener('abort', abort, { once: true });
  try {
    socket = await Promise.race([new Promise<Socket>((resolve) => server.once('connection', resolve)), ended]);
    const connection = createMessageConnection(new SocketMessageReader(socket), new SocketMessageWriter(socket));
    const tests: PlatformTest[] = [];
    connection.onNotification('testing/testUpdates/tests', (params: { changes?: TestNodeChange[] }) => {
      for (const { node } of params.changes ?? []) {
        const test = platformTest(node);
        if (test) tests.push(test);
      }
    });
    // Logs, telemetry and anything else the program sends are not needed.
    connection.onNotification(() => {});
    connection.onRequest(() => ({}));
    connection.listen();
    await Promise.race([connection.sendRequest('initialize', { processId: process.pid, clientInfo: { name: 'debugbridge', version: '1' }, capabilities: { testing: { debuggerProvider: false } } }), ended]);
    await Promise.race([connection.sendRequest('testing/discoverTests', { runId: randomUUID() }), ended]);
    await connection.sendNotification('exit', {}).catch(() => undefined);
    connection.dispose();
    return tests;
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', abort);
    socket?.destroy();
    server.close();
    if (child.exitCode === null && child.signalCode === null) {
      const gone = await Promise.race([exited.then(() => true), new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 2000).unref())]);
      if (!gone) signalGroup(child, 'SIGKILL');
    }
  }
}

/** A discovered test, or undefined for a node that is no test (a group, or a state change). */
function platformTest(node: Record<string, unknown> | undefined): PlatformTest | undefined {
  if (!node || node['node-type'] !== 'action' || typeof node.uid !== 'string') return undefined;
  const text = (key: string) => (typeof node[key] === 'string' ? (node[key] as string) : undefined);
  const line = node['location.line-start'];
  return {
    uid: node.uid,
    displayName: text('display-name') ?? node.uid,
    type: text('location.type'),
    file: text('location.file'),
    line: typeof line === 'number' ? line : undefined,
  };
}

export function isDiscoveryFailure(e: unknown): e is DiscoveryFailure {
  return typeof e === 'object' && e !== null && 'output' in e && 'exitCode' in e;
}
