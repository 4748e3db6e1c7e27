/** The MCP server: tool groups over one SessionManager, logging for stops, exits and failures. */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { SessionManager } from '../core/sessionManager.js';
import { wordArgumentErrors } from './argumentErrors.js';
import { registerBreakpointTools } from './breakpointTools.js';
import { registerExecutionTools } from './executionTools.js';
import { registerInspectionTools } from './inspectionTools.js';
import { registerLiveEditTool } from './liveEditTool.js';
import { registerProbeTool } from './probeTool.js';
import { registerSessionTools } from './sessionTools.js';
import { registerTestTools } from './testTools.js';
import { registerWatchTools } from './watchTools.js';
import { codeInvalidParams, codeSdkErrors } from './toolKit.js';
import { compactToolList } from './toolListing.js';

export const INSTRUCTIONS = `debugbridge debugs real programs (Python, Node.js, .NET) the way a person does in an IDE.
Workflow: session_launch with the program and its breakpoints (they are armed before any code runs; waitForStop: true also returns the first stop) → breakpoint_wait for the next stop → inspect_stack / inspect_variables / inspect_evaluate → execution_step (over/into/out) or execution_continue (which waits for the next stop) → session_stop when done.
Every stop shows where (function, file:line), why (breakpoint ids, exception), the source around it and its frame's locals — often enough without more calls. In structured answers a stop is {reason, threadId, threadName?, frameIndex, frame: {name, file?, line, column}, source?: [{line, text, current}], hitBreakpointIds, exception?: {type?, message?, thrownAt?, causes?, frames?, throwSource?}, locals?: [{name, value, type?, previous?}], watches?}.
For a quick look at one run, debug_probe does launch → collect values at each hit → stop in one call.
For a failing test, debug_test runs it by name under its framework (pytest, unittest, node:test, vitest, jest, mocha, dotnet test) and stops where it fails; test_list gives the test ids.
After editing source files, session_apply_changes applies the edits to the running program without a restart.
watch_add shows expressions in every stop, changes marked old → new; breakpoint_set with trace records values at each hit without stopping.
sessionId may be left out when one session is active. Lines are 1-based; frameIndex 0 is the top frame (inspect_stack); left out, it is the stop's current frame (frameIndex in the stop: the innermost of the user's code). timeoutMs is in ms (waits default 30 s, steps 10 s, launches 60 s, tests 120 s).
Answers fit maxChars (default 4000); what is cut names the exact call that reads on. Errors start with a stable CODE: and say what to do next; an argument a tool does not know, at any depth, is refused (INVALID_ARGUMENT naming it).
languages_list tells which runtimes work here.`;

/** `catalogTools`: the build-time tools/list answer, served instead of converting every schema again per call. */
export function createServer(manager: SessionManager, version: string, catalogTools?: unknown[]): McpServer {
  const server = new McpServer(
    { name: 'debugbridge', version },
    { capabilities: { logging: {} }, instructions: INSTRUCTIONS },
  );
  codeSdkErrors(server);
  wordArgumentErrors(server);
  registerSessionTools(server, manager);
  registerLiveEditTool(server, manager);
  registerBreakpointTools(server, manager);
  registerExecutionTools(server, manager);
  registerInspectionTools(server, manager);
  registerProbeTool(server, manager);
  registerTestTools(server, manager);
  registerWatchTools(server, manager);
  if (catalogTools) {
    server.server.removeRequestHandler('tools/list');
    server.server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: catalogTools as never[] }));
  } else {
    compactToolList(server);
  }
  codeInvalidParams(server);
  const unsubscribe = manager.onNotify((session, level, message) => {
    if (!server.isConnected()) return;
    server.sendLoggingMessage({ level, logger: 'debugbridge', data: { sessionId: session.id, state: session.state, message } }).catch(() => undefined);
  });
  server.server.onclose = unsubscribe;
  return server;
}
