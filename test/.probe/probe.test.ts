import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { it } from 'vitest';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { buildFixture } from '../../test/fixtures/dotnet/fixtures.js';
import { fixtureSource } from '../../test/fixtures/dotnet/markers.js';
import { evaluate, launchTo, topFrame } from '../../test/support/dotnetEvaluation.js';

it('probe', async () => {
  const pricing = buildFixture('pricing');
  const client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: mkdtempSync(join(tmpdir(), 'dbb-probe-')) } });
  const src = fixtureSource('pricing', process.env.PROBE_FILE ?? 'Ranking.cs');
  const { sessionId } = await launchTo(client, pricing, src.path, src.line(process.env.PROBE_MARK ?? 'top'));
  for (const e of JSON.parse(process.env.PROBE_EXPR!)) {
    const r = await evaluate(client, sessionId, e);
    const f = await topFrame(client, sessionId);
    console.log(`>> ${e}\n   ${r.isError ? 'ERR ' + r.text.split('\n')[0] : r.value + ' : ' + r.type}   [${f?.name}:${f?.line}]`);
  }
  await client.call('session_stop', { sessionId });
  await client.close();
}, 300_000);
