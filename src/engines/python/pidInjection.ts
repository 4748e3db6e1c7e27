/**
 * Attach by pid: debugpy injects itself into the running interpreter (through gdb on Linux,
 * lldb on macOS) and listens on a port we choose; the engine then attaches over that port.
 */
import { execFile } from 'node:child_process';
import { DebugError } from '../../core/errors.js';
import { freePort } from '../../core/freePort.js';
import type { PythonInterpreter } from './interpreter.js';

const LISTEN_ALTERNATIVE = 'Or start the program with `python -m debugpy --listen 127.0.0.1:5678 prog.py` and attach with host and port.';

/** Makes process `pid` listen for a debugger on 127.0.0.1; resolves with the port. */
export async function injectDebugpy(interpreter: PythonInterpreter, pid: number, timeoutMs = 30_000): Promise<number> {
  const port = await freePort();
  const args = ['-m', 'debugpy', '--listen', `127.0.0.1:${port}`, '--pid', String(pid)];
  await new Promise<void>((resolve, reject) => {
    execFile(interpreter.executable, args, { timeout: timeoutMs, windowsHide: true }, (error, stdout, stderr) => {
      if (!error) return resolve();
      const said = `${stdout}\n${stderr}`.split('\n').filter((l) => l.trim() && !l.startsWith('Running:')).slice(-4).join(' | ');
      reject(
        new DebugError(
          'ATTACH_FAILED',
          `debugpy could not inject itself into process ${pid}: ${said || error.message}`,
          `Injection needs gdb (lldb on macOS), permission to ptrace the process, and a CPython with symbols. ${LISTEN_ALTERNATIVE}`,
        ),
      );
    });
  });
  return port;
}

