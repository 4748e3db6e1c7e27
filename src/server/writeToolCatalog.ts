/**
 * Build step (`npm run build`): asks the real server what it answers to initialize and tools/list
 * and writes it to dist/server/toolCatalog.json, with the compiled server it came from beside it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { LATEST_PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/sdk/types.js';
import { SessionManager } from '../core/sessionManager.js';
import { SessionStore } from '../core/sessionStore.js';
import { VERSION } from '../version.js';
import { createServer } from './createServer.js';
import { CATALOG_FILE, serverSources, SOURCES_FILE, type ToolCatalog } from './toolCatalog.js';

const stateDir = mkdtempSync(join(tmpdir(), 'debugbridge-catalog-'));
try {
  const server = createServer(new SessionManager({ store: new SessionStore(stateDir) }), VERSION);
  const [serverSide, clientSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'catalog-writer', version: VERSION });
  await client.connect(clientSide);
  const { tools } = await client.listTools();
  const catalog: ToolCatalog = {
    supportedProtocolVersions: SUPPORTED_PROTOCOL_VERSIONS,
    latestProtocolVersion: LATEST_PROTOCOL_VERSION,
    initialize: {
      capabilities: client.getServerCapabilities() ?? {},
      serverInfo: client.getServerVersion() ?? { name: 'debugbridge', version: VERSION },
      instructions: client.getInstructions(),
    },
    tools,
  };
  writeFileSync(CATALOG_FILE, `${JSON.stringify(catalog)}\n`);
  writeFileSync(SOURCES_FILE, serverSources(VERSION));
  await client.close();
  await server.close();
} finally {
  rmSync(stateDir, { recursive: true, force: true });
}
