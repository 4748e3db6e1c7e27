/**
 * An I/O that a pending async chain waits on, named as the program called it: the API its innermost
 * method of the program's own code awaits (read from that method's IL at the await), and what kind
 * of I/O it is (a socket read, a pipe read, a file read, an HTTP request), from that API, the
 * framework's async methods between it and the I/O, and the object the innermost await holds (the
 * runtime's socket operation, the thread-pool work item of a file read) — never only that object's
 * internal class name.
 */
import type { AwaitWait } from '../../../core/types.js';
import { awaitedCall, type CalledMethod } from '../symbols/awaitedCall.js';
import type { AsyncFrame } from './asyncChain.js';
import type { AsyncTaskReader } from './asyncTaskReader.js';
import type { ModuleRegistry } from './moduleRegistry.js';
import type { NativeValue } from './values/nativeValue.js';

type Family = 'socket' | 'pipe' | 'file' | 'http';

const SOCKET_SOURCE = 'System.Net.Sockets.Socket+AwaitableSocketAsyncEventArgs';
const FILE_SOURCE = 'Microsoft.Win32.SafeHandles.SafeFileHandle+ThreadPoolValueTaskSource';
/** System.Net.Sockets.SocketAsyncOperation, by value. */
const SOCKET_OPERATIONS: Record<number, string> = { 1: 'accept', 2: 'connect', 3: 'disconnect', 4: 'read', 5: 'read', 6: 'read', 7: 'write', 8: 'write', 9: 'write' };
/** The public stream a `Stream.ReadAsync` call reads, by the I/O under it. */
const STREAM_OF: Record<Family, string | undefined> = { socket: 'NetworkStream', pipe: 'PipeStream', file: 'FileStream', http: undefined };

/** Whether an awaited object is an I/O operation of the runtime's. */
export function isIoObject(typeName: string): boolean {
  return /^System\.(Net|IO)\./.test(typeName) || typeName === FILE_SOURCE;
}

export class IoWaits {
  constructor(
    private readonly tasks: AsyncTaskReader,
    private readonly modules: ModuleRegistry,
  ) {}

  /** `awaited`: what the chain's innermost await holds; `frames`: the chain, innermost first. */
  async describe(awaited: NativeValue, frames: AsyncFrame[]): Promise<AwaitWait> {
    const type = this.tasks.typeNames(awaited)[0] ?? '';
    const user = frames.find((f) => f.location);
    const api = user && this.calledApi(user);
    const framework = frames.slice(0, user ? frames.indexOf(user) : frames.length).map((f) => f.name);
    const family = familyOf([api?.type ?? '', ...framework, type]);
    const operation = (type === SOCKET_SOURCE ? await this.socketOperation(awaited) : undefined) ?? (api && operationOf(api.name));
    const what = family === 'http' ? 'an HTTP request' : family && operation ? `a ${family} ${operation}` : family ? `${family} I/O` : undefined;
    return { kind: 'io', object: api ? apiName(api, family) : this.tasks.reader.catalog.name(awaited.chain?.[0]), ...(what ? { what } : {}) };
  }

  /** The call the frame's await waits on, from its MoveNext's IL before the await's suspension. */
  private calledApi(frame: AsyncFrame): CalledMethod | undefined {
    const meta = this.modules.get(frame.module)?.symbols?.metadata;
    const method = meta?.methodByToken(frame.methodToken);
    return meta && method ? awaitedCall(meta, meta.ilCode(method), frame.ilOffset) : undefined;
  }

  /** The operation a socket's awaitable runs: SocketAsyncEventArgs' last operation. */
  private async socketOperation(source: NativeValue): Promise<string | undefined> {
    const [operation] = await this.tasks.reader.fieldsByName(source, ['_completedOperation']).catch(() => []);
    return operation?.v !== undefined ? SOCKET_OPERATIONS[Number(operation.v)] : undefined;
  }
}

/** The kind of I/O, from the most specific name that tells: the API's type, then the framework's methods under it, then the awaited object. */
function familyOf(names: string[]): Family | undefined {
  if (names.some((n) => n.startsWith('System.Net.Http.'))) return 'http';
  for (const name of names) {
    if (name.startsWith('System.IO.Pipes.')) return 'pipe';
    if (/^System\.IO\.(FileStream|File|RandomAccess|Strategies\.)/.test(name) || name === FILE_SOURCE) return 'file';
    if (name.startsWith('System.Net.Sockets.')) return 'socket';
  }
  return undefined;
}

function operationOf(method: string): string | undefined {
  if (/Read|Receive/.test(method)) return 'read';
  if (/Write|Send|Flush/.test(method)) return 'write';
  if (/Accept/.test(method)) return 'accept';
  if (/Connect/.test(method)) return 'connect';
  return undefined;
}

/** `Socket.ReceiveAsync`; a call through the Stream base class named by the stream the I/O shows it is. */
function apiName(api: CalledMethod, family: Family | undefined): string {
  const type = api.type === 'System.IO.Stream' && family ? (STREAM_OF[family] ?? 'Stream') : api.type.replace(/^.*[.+]/, '').replace(/`\d+$/, '');
  return `${type}.${api.name}`;
}
