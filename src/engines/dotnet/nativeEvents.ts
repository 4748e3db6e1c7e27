/** The events the native debugger thread sends (JSON), as TypeScript types. */
export type NativeEvent =
  | { event: 'process'; pid: number }
  | {
      event: 'module';
      reason: 'load';
      handle: number;
      path: string;
      base: string;
      size: number;
      dynamic: boolean;
      inMemory: boolean;
      user: boolean;
      optimizationsDisabled: boolean;
      /** The process waits in LoadModule until continued (holdModuleLoads). */
      held: boolean;
    }
  | { event: 'module'; reason: 'unload'; handle: number }
  | { event: 'thread'; reason: 'started' | 'exited'; threadId: number }
  | { event: 'stopped'; reason: 'userBreak'; threadId: number }
  | {
      event: 'exception';
      kind: 'firstChance' | 'unhandled';
      threadId: number;
      type: string;
      message: string;
      stopped: boolean;
    }
  | { event: 'log'; message: string }
  | { event: 'exited' }
  | { event: 'debuggerError'; hr: number; code: number }
  /** The host process running ICorDebug ended without being asked to (see debuggerHost.ts). */
  | { event: 'hostExited'; code: number | null; signal: string | null };

export interface NativeThread {
  id: number;
  name?: string;
}

export function parseNativeEvent(json: string): NativeEvent {
  return JSON.parse(json) as NativeEvent;
}
