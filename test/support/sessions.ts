/** What end-to-end files do between tests: end every session still active on the server. */
import type { McpTestClient } from '../../src/demo/mcpClient.js';

export async function stopActiveSessions(client: McpTestClient): Promise<void> {
  const { structured } = await client.call<{ sessions: { sessionId: string; state: string }[] }>('session_list');
  for (const s of structured.sessions) {
    if (['running', 'stopped', 'initializing'].includes(s.state)) await client.call('session_stop', { sessionId: s.sessionId });
  }
}
