/**
 * The native debugger session in this (host) process: one `call(command, args)` entry whose commands
 * run on the addon's debugger thread (native/src/debugger/commands.cpp), answering parsed JSON.
 */
import { loadAddon, type NativeSession } from '../addon.js';
import type { NativeEvent, NativeFrame, NativeThread } from './nativeEvents.js';

/** What each native command takes and answers. */
export interface NativeCommands {
  attachAtStartup: [{ pid: number; resumeFd: number; timeoutMs: number; dbgshimPath?: string }, { pid: number; access: string }];
  attachRunning: [{ pid: number; timeoutMs: number; dbgshimPath?: string }, { pid: number; access: string }];
  configure: [{ stopOnFirstChance?: boolean; stopOnUnhandled?: boolean; holdModuleLoads?: boolean }, object];
  continue: [object, { continued: boolean }];
  release: [object, { released: boolean }];
  pause: [object, { wasRunning: boolean }];
  detach: [object, { detached: boolean }];
  threads: [object, { threads: NativeThread[] }];
  stack: [{ threadId: number; start: number; count: number }, { frames: NativeFrame[]; total: number }];
  setUserCode: [{ module: number; user: boolean; nonUserTokens: number[]; disableOptimizations: boolean }, { optimizationsDisabled: boolean }];
  createBreakpoint: [{ module: number; token: number; ilOffset: number }, { id: number }];
  removeBreakpoint: [{ id: number }, object];
  step: [{ threadId: number; kind: 'over' | 'into' | 'out'; ranges: [number, number][]; justMyCode: boolean }, object];
  cancelStep: [object, object];
}

export class Native {
  private readonly session: NativeSession;

  constructor(onEvent: (event: NativeEvent) => void) {
    const addon = loadAddon();
    this.session = new addon.Session((json) => onEvent(JSON.parse(json) as NativeEvent));
  }

  async call<K extends keyof NativeCommands>(command: K, args: NativeCommands[K][0]): Promise<NativeCommands[K][1]> {
    return JSON.parse(await this.session.call(command, args)) as NativeCommands[K][1];
  }

  async close(): Promise<void> {
    await this.session.close();
  }
}
