/** session_apply_changes: the source edits made on disk, applied to the running program (live edit). */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import type { SessionManager } from '../core/sessionManager.js';
import { resolveFile } from './launchArgs.js';
import { renderLiveEdit } from './renderLiveEdit.js';
import { sessionIdInput, sessionScoped, stopSchema, timeoutInput } from './schemas.js';
import { stopView } from './structured.js';
import { defineTool } from './toolKit.js';

const changeSchema = z.object({
  file: z.string(),
  status: z.enum(['applied', 'refused', 'unchanged']),
  items: z.array(z.string()).describe('What changed, in the runtime\'s terms.'),
  reason: z.string().optional().describe('Why the runtime refused, in its terms.'),
  nextStep: z.string().optional(),
});

const staleFrameSchema = z.object({ threadId: z.number(), name: z.string(), file: z.string().optional(), line: z.number().optional() });

export function registerLiveEditTool(server: McpServer, manager: SessionManager): void {
  defineTool(
    server,
    'session_apply_changes',
    {
      title: 'Apply source edits to the running program',
      description: 'Live edit: applies edits made on disk to the program, stopped or running, with no restart. Per file: applied, refused (the runtime\'s reason) or unchanged.',
      input: {
        sessionId: sessionIdInput,
        files: z.array(z.string()).optional().describe('Default: every loaded source changed since its load or the last apply.'),
        // The call's budget (toolKit) grows by it: a server's first .NET apply loads Roslyn and compiles the program.
        timeoutMs: timeoutInput.describe('ms the call may take beyond 60 s (a first .NET apply can take a minute).'),
      },
      output: {
        ...sessionScoped,
        changes: z.array(changeSchema),
        staleFrames: z.array(staleFrameSchema).describe('Frames still running the code from before the edit.'),
        notes: z.array(z.string()),
        stop: stopSchema.optional(),
      },
    },
    async ({ sessionId, files }, ctx) => {
      const session = manager.get(sessionId);
      const resolved = files?.map((f) => resolveFile(manager, f, session.config.cwd, 'edited file'));
      const answer = await session.applyChanges({ files: resolved }, ctx.signal);
      const { changes, staleFrames, notes } = answer.result;
      return {
        text: renderLiveEdit(session.id, answer),
        data: { sessionId: session.id, state: answer.state, changes, staleFrames, notes, stop: answer.stop ? stopView(answer.stop) : undefined },
      };
    },
  );
}
