/** Watch group: expressions evaluated at every stop and shown in it, changes since the stop before marked. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DebugError } from '../core/errors.js';
import type { Session } from '../core/session.js';
import type { SessionManager } from '../core/sessionManager.js';
import { MAX_WATCHES } from '../core/watchList.js';
import { DEFAULT_MAX_CHARS, renderWatches } from './renderAnswers.js';
import { maxCharsInput, sessionIdInput, sessionScoped, watchValueSchema } from './schemas.js';
import { defineTool } from './toolKit.js';

const watchesOutput = {
  ...sessionScoped,
  watches: z.array(z.object({ id: z.number(), expression: z.string() })),
  values: z.array(watchValueSchema).optional().describe('At the current stop.'),
};

/** The watches and, when stopped, their values now. */
async function answer(session: Session, maxChars: number | undefined, lead: string) {
  const watches = session.watches.list();
  const values = watches.length ? await session.watchValues() : undefined;
  return {
    text: `[${session.id}] ${lead}${renderWatches(watches, values, maxChars ?? DEFAULT_MAX_CHARS)}`,
    data: { sessionId: session.id, state: session.state, watches, values },
  };
}

export function registerWatchTools(server: McpServer, manager: SessionManager): void {
  defineTool(
    server,
    'watch_add',
    {
      title: 'Add watches',
      description: 'Watches expressions: shown in every stop, changes since the stop before as old → new.',
      input: { sessionId: sessionIdInput, expressions: z.array(z.string().min(1)).min(1).max(MAX_WATCHES) },
      output: watchesOutput,
    },
    async ({ sessionId, expressions }) => {
      const session = manager.get(sessionId);
      session.watches.add(expressions);
      return answer(session, undefined, '');
    },
  );

  defineTool(
    server,
    'watch_remove',
    {
      title: 'Remove watches',
      description: 'Removes watches by id or expression, or all.',
      input: { sessionId: sessionIdInput, ids: z.array(z.number().int()).optional(), expressions: z.array(z.string()).optional(), all: z.boolean().optional() },
      output: { ...watchesOutput, removed: z.array(z.object({ id: z.number(), expression: z.string() })) },
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    async ({ sessionId, ids, expressions, all }) => {
      if (!ids?.length && !expressions?.length && !all) throw new DebugError('INVALID_ARGUMENT', 'Say which watches to remove.', 'Pass ids, expressions, or all: true.');
      const session = manager.get(sessionId);
      const removed = session.watches.remove({ ids, expressions, all });
      const r = await answer(session, undefined, `Removed ${removed.map((w) => `#${w.id}`).join(', ')}.\n`);
      return { text: r.text, data: { ...r.data, removed } };
    },
  );

  defineTool(
    server,
    'watch_list',
    {
      title: 'List watches',
      description: 'The watches, with their values when stopped.',
      input: { sessionId: sessionIdInput, maxChars: maxCharsInput },
      output: watchesOutput,
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId, maxChars }) => answer(manager.get(sessionId), maxChars, ''),
  );
}
