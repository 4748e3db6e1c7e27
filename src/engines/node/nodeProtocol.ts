/**
 * The parts of Node's own inspector domains (not in Chrome's devtools-protocol package) this
 * engine uses: NodeWorker, which reaches worker threads through their parent's connection, and
 * NodeRuntime, which says when a process waits for the debugger.
 */
export interface NodeWorkerInfo {
  workerId: string;
  type: string;
  title: string;
  url: string;
}

export interface NodeCommands {
  'NodeWorker.enable': { paramsType: [{ waitForDebuggerOnStart: boolean }]; returnType: Record<string, never> };
  'NodeWorker.sendMessageToWorker': { paramsType: [{ message: string; sessionId: string }]; returnType: Record<string, never> };
  'NodeWorker.detach': { paramsType: [{ sessionId: string }]; returnType: Record<string, never> };
  'NodeRuntime.enable': { paramsType: []; returnType: Record<string, never> };
}

export interface NodeEvents {
  'NodeWorker.attachedToWorker': [{ sessionId: string; workerInfo: NodeWorkerInfo; waitingForDebugger: boolean }];
  'NodeWorker.detachedFromWorker': [{ sessionId: string }];
  'NodeWorker.receivedMessageFromWorker': [{ sessionId: string; message: string; workerId: string }];
  'NodeRuntime.waitingForDebugger': [Record<string, never>];
}
