/**
 * Which runtime's debugger listens on a port, told by how each greets a connection: debugpy
 * (`--listen`) speaks first, a DAP `output` event, while node (`--inspect`) waits, then serves
 * the inspector's HTTP `/json/version`. debugpy serves one client and cannot take another once a
 * client has come and gone, so the connection that found it is the one the Python engine attaches
 * over (held here until it takes it); the probe says nothing to it.
 */
import { connect, type Socket } from 'node:net';
import { DebugError } from '../core/errors.js';

export interface DebugPort {
  language: 'python' | 'node';
  /** What answered, for the attach answer: `debugpy 1.8.1`, `node v20.11.1`. */
  runtime: string;
}

/** How long a listener has to greet the connection before the probe asks it over HTTP; debugpy's greeting comes on accept. */
const GREETING_MS = 1_000;
const ANSWER_TIMEOUT_MS = 3_000;
const CONNECT_TIMEOUT_MS = 5_000;
/** A held debugpy connection the attach did not take by then is let go. */
const HOLD_MS = 30_000;

const HOW_TO_LISTEN = 'Start the program with `python -m debugpy --listen HOST:PORT prog.py` or `node --inspect=HOST:PORT prog.js`, and give the address this machine reaches it at.';

const held = new Map<string, Socket>();

export async function probeDebugPort(host: string, port: number): Promise<DebugPort> {
  const socket = await connectTo(host, port);
  const greeting = await firstBytes(socket, GREETING_MS);
  if (greeting?.startsWith('Content-Length:')) {
    hold(host, port, socket, greeting);
    const version = /"packageVersion":\s*"([^"+]+)/.exec(greeting)?.[1];
    return { language: 'python', runtime: version ? `debugpy ${version}` : 'debugpy' };
  }
  let answer: string | undefined;
  if (greeting === undefined) {
    socket.write(`GET /json/version HTTP/1.1\r\nHost: ${hostForUrl(host)}:${port}\r\nConnection: close\r\n\r\n`);
    answer = await wholeAnswer(socket, ANSWER_TIMEOUT_MS);
  }
  socket.destroy();
  const browser = /"Browser"\s*:\s*"node\.js\/(v[\d.]+)/i.exec(answer ?? '');
  if (browser) return { language: 'node', runtime: `node ${browser[1]}` };
  throw new DebugError(
    'NOT_A_DEBUG_PORT',
    `Something listens on ${host}:${port} but it is no debugger: neither debugpy's DAP nor node's inspector answers there.`,
    `Check the port. ${HOW_TO_LISTEN}`,
    { host, port },
  );
}

/** The connection the probe found debugpy on, for the attach to the same address; undefined when there is none. */
export function takeHeldConnection(host: string, port: number): Socket | undefined {
  const key = `${host}:${port}`;
  const socket = held.get(key);
  held.delete(key);
  return socket && !socket.destroyed ? socket : undefined;
}

function hold(host: string, port: number, socket: Socket, greeting: string): void {
  const key = `${host}:${port}`;
  held.get(key)?.destroy();
  // The greeting goes back into the stream, for the DAP reader that takes the connection.
  socket.unshift(Buffer.from(greeting, 'latin1'));
  held.set(key, socket);
  setTimeout(() => {
    if (held.get(key) !== socket) return;
    held.delete(key);
    socket.destroy();
  }, HOLD_MS).unref();
}

function connectTo(host: string, port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, noDelay: true });
    const fail = (why: string) => {
      clearTimeout(timer);
      socket.destroy();
      reject(new DebugError('NOTHING_LISTENING', `Nothing listens on ${host}:${port} (${why}).`, HOW_TO_LISTEN, { host, port }));
    };
    const timer = setTimeout(() => fail(`no answer to the connection within ${CONNECT_TIMEOUT_MS} ms`), CONNECT_TIMEOUT_MS);
    socket.once('error', (e: NodeJS.ErrnoException) => fail(e.code ?? e.message));
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
  });
}

/** The first bytes the listener sends unasked within `ms`; undefined when it waits; '' when it closes. */
function firstBytes(socket: Socket, ms: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    const done = (value: string | undefined) => {
      clearTimeout(timer);
      socket.off('data', onData).off('end', onEnd).off('error', onEnd);
      socket.pause();
      resolve(value);
    };
    const onData = (data: Buffer) => done(data.toString('latin1'));
    const onEnd = () => done('');
    const timer = setTimeout(() => done(undefined), ms);
    socket.on('data', onData).once('end', onEnd).once('error', onEnd);
  });
}

/** The listener's HTTP answer: until its Content-Length is read, it closes, or `ms` passes. */
function wholeAnswer(socket: Socket, ms: number): Promise<string> {
  return new Promise((resolve) => {
    let text = '';
    const done = () => {
      clearTimeout(timer);
      resolve(text);
    };
    const timer = setTimeout(done, ms);
    socket.on('data', (data: Buffer) => {
      text += data.toString('latin1');
      const head = text.indexOf('\r\n\r\n');
      const length = /^content-length:\s*(\d+)/im.exec(text.slice(0, head))?.[1];
      if (head >= 0 && length !== undefined && text.length - head - 4 >= Number(length)) done();
    });
    socket.once('end', done).once('error', done).once('close', done);
    socket.resume();
  });
}

function hostForUrl(host: string): string {
  return host.includes(':') ? `[${host}]` : host;
}
