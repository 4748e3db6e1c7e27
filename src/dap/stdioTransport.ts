import type { ChildProcess } from 'node:child_process';
import { StreamTransport } from './dapTransport.js';
import { LineTail } from './lineTail.js';

/** DAP over a child process's stdin/stdout; its stderr is kept as a tail for diagnostics. */
export class StdioTransport extends StreamTransport {
  private readonly stderr = new LineTail();

  constructor(child: ChildProcess, description: string) {
    if (!child.stdin || !child.stdout) throw new Error(`${description}: stdin/stdout must be pipes`);
    const stdin = child.stdin;
    super(child.stdout, stdin, description, () => stdin.end());
    child.stderr?.setEncoding('utf8');
    child.stderr?.on('data', (chunk: string) => this.stderr.push(chunk));
    // A write to a dead child's stdin raises EPIPE on the stream; the exit below reports it.
    stdin.on('error', () => {});
    // 'exit' can come before the last messages are read from stdout: the end of stdout closes the
    // transport; this is the fallback for a grandchild that keeps the pipe open.
    child.on('exit', (code, signal) => {
      const reason = new Error(`${description} exited (${signal ?? `code ${code}`})`);
      setTimeout(() => this.finish(reason), 200).unref();
    });
    child.on('error', (error) => this.finish(error));
  }

  stderrTail(): string[] {
    return this.stderr.snapshot();
  }
}
