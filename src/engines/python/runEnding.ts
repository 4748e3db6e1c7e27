/**
 * Ending a Python run with every process it started. A launch that has not answered (it timed
 * out, was cancelled or failed, maybe holding a ready debuggee it took) may be stuck at any step:
 * its adapter's whole process session is killed at once. A program of ours that is to end is killed
 * with its process group, its descendants and the adapter's session, as debugpy would. Otherwise
 * debugpy is asked to disconnect, ending the program or leaving it running, and what the adapter
 * and the launcher leave behind is ended.
 */
import { isProcessRunning } from '../../core/processAlive.js';
import type { DapClient } from '../../dap/dapClient.js';
import type { AdapterProcess } from './adapterProcess.js';
import { descendantsOf, endProcesses, killProcesses, killProcessGroup } from './processTree.js';
import { removeLaunchSpec } from './readyLauncher.js';

export interface PythonRun {
  client?: DapClient;
  adapter?: AdapterProcess;
  /** A launch that has not answered yet. */
  launchUnanswered: boolean;
  /** The program's pid when ending it is ours to do (we launched it, or it runs on this machine). */
  ourProgram?: number;
  /** A ready debuggee's spec file, left behind when it died before reading it. */
  specPath?: string;
}

export async function endPythonRun(run: PythonRun, how: 'terminate' | 'detach', warn: (message: string) => void): Promise<void> {
  const { client, adapter } = run;
  if (run.launchUnanswered) {
    client?.close();
    if (run.specPath) removeLaunchSpec(run.specPath);
    await adapter?.kill();
    return;
  }
  if (!client) return;
  const terminating = how === 'terminate';
  // Looked up before the program ends: its children lose their parent link once it is gone.
  const program = terminating && run.ourProgram !== undefined ? [run.ourProgram, ...descendantsOf(run.ourProgram)] : [];
  if (program.length) {
    // What debugpy does on a disconnect that terminates (SIGKILL to the program's process group,
    // then its launcher and adapter exit), done here at once: the round trips and the adapter's
    // own shutdown took most of a session_stop.
    client.close();
    if (run.specPath) removeLaunchSpec(run.specPath);
    if (isProcessRunning(program[0])) killProcessGroup(program[0]);
    await Promise.all([killProcesses(program), adapter?.kill()]);
    return;
  }
  if (!client.closed) {
    // Answered after the debuggee exited (debugpy kills its process group) and its last output and exit code came.
    await client.request('disconnect', { terminateDebuggee: terminating, restart: false }, { timeoutMs: 3000 }).catch(() => undefined);
  }
  client.close();
  if (run.specPath) removeLaunchSpec(run.specPath);
  // The adapter and the launcher end by themselves now (~10 ms); what they leave is ended.
  await Promise.all([adapter?.end({ withDescendants: terminating }).catch((e: unknown) => warn(`python adapter end: ${(e as Error).message}`)), endProcesses(program)]);
}
