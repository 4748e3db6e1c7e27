/**
 * What debugpy sends that the engine passes on without keeping anything of it: output (not its
 * telemetry), the breakpoint bindings it changed, modules and threads. The reverse requests it may
 * send are refused: debugbridge has no terminal and does not debug child processes.
 */
import type { EngineEvent } from '../../core/engine.js';
import type { DapClient } from '../../dap/dapClient.js';
import type { BreakpointIds } from './breakpointIds.js';

export function passThroughEvents(client: DapClient, breakpointIds: BreakpointIds, emit: (event: EngineEvent) => void): void {
  client.on('output', (body) => {
    const category = body.category ?? 'console';
    if (category === 'telemetry') return;
    emit({ type: 'output', category: category === 'stdout' || category === 'stderr' ? category : 'console', text: body.output });
  });
  client.on('breakpoint', (body) => {
    const binding = breakpointIds.changed(body.breakpoint);
    if (binding) emit({ type: 'breakpoint', binding });
  });
  client.on('module', (body) => emit({ type: 'module', reason: body.reason, name: body.module.name, path: body.module.path }));
  client.on('thread', (body) => emit({ type: 'thread', reason: body.reason === 'exited' ? 'exited' : 'started', threadId: body.threadId }));
  client.handleReverseRequest('runInTerminal', () => {
    throw new Error('debugbridge runs programs with console "internalConsole" and has no terminal');
  });
  client.handleReverseRequest('startDebugging', () => {
    throw new Error('debugbridge does not debug child processes');
  });
}
