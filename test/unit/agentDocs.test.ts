/**
 * What agents and users copy from the docs: the skill file's frontmatter follows the Agent Skills
 * format, every tool it names exists (or is named as optional), every `debugbridge call` line in the
 * skill and the README parses against the tool's real input schema, and the client snippets are
 * valid JSON in each client's documented shape.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { SessionManager } from '../../src/core/sessionManager.js';
import { SessionStore } from '../../src/core/sessionStore.js';
import { buildArguments, type InputSchema } from '../../src/daemon/callArgs.js';
import { createServer } from '../../src/server/createServer.js';
import { fullInputSchema } from '../../src/server/toolListing.js';
import { VERSION } from '../../src/version.js';

const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
const skill = read('skills/debugbridge/SKILL.md');
const readme = read('README.md');
const catalog = JSON.parse(read('dist/server/toolCatalog.json')) as { tools: { name: string }[] };
const tools = new Set(catalog.tools.map((t) => t.name));
// The whole input schema, as `debugbridge call` reads it from the daemon.
const server = createServer(new SessionManager({ store: new SessionStore(mkdtempSync(join(tmpdir(), 'dbb-docs-'))) }), VERSION);
/** Tools the skill mentions only as "if the tool list has it" (they come with later versions). */
const OPTIONAL = ['debug_test', 'test_list', 'watch_add'];

/** Shell words of a command line (single quotes group, as in the examples). */
function words(line: string): string[] {
  return [...line.matchAll(/'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2]);
}

function callLines(markdown: string): string[] {
  return markdown.split('\n').filter((l) => /^\s*debugbridge call \w/.test(l)).map((l) => l.replace(/\s+#.*$/, '').trim());
}

describe('skills/debugbridge/SKILL.md', () => {
  it('has the frontmatter the Agent Skills format asks for', () => {
    const front = /^---\n([\s\S]*?)\n---\n/.exec(skill)?.[1] ?? '';
    const field = (name: string) => new RegExp(`^${name}: (.+)$`, 'm').exec(front)?.[1] ?? '';
    expect(field('name')).toBe('debugbridge'); // the folder's name
    expect(field('name')).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
    expect(field('description').length).toBeGreaterThan(50);
    expect(field('description').length).toBeLessThanOrEqual(1024);
  });

  it('names only tools that exist, or says they may not', () => {
    const named = new Set([...skill.matchAll(/`((?:session|breakpoint|execution|inspect|debug|watch|test|languages)_[a-z_]+)`/g)].map((m) => m[1]));
    const unknown = [...named].filter((n) => !tools.has(n) && !OPTIONAL.includes(n));
    expect(unknown).toEqual([]);
    expect(named.size).toBeGreaterThan(10);
  });
});

describe('debugbridge call examples', () => {
  const lines = [...callLines(skill), ...callLines(readme)];
  it.each(lines)('%s', (line) => {
    const [, , tool, ...rest] = words(line);
    const schema = fullInputSchema(server, tool) as InputSchema | undefined;
    expect(schema, `no tool ${tool}`).toBeDefined();
    expect(() => buildArguments(tool, rest, schema!)).not.toThrow();
  });
  it('are there', () => expect(lines.length).toBeGreaterThan(8));
});

describe('README client snippets', () => {
  it('are valid JSON in the shape each client documents', () => {
    const blocks = [...readme.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]) as Record<string, Record<string, Record<string, unknown>>>);
    const mcpServers = blocks.find((b) => b.mcpServers)?.mcpServers.debugbridge; // Claude Desktop, Cursor
    const vscode = blocks.find((b) => b.servers)?.servers.debugbridge;
    expect(mcpServers).toMatchObject({ command: 'debugbridge', args: [] });
    expect(vscode).toMatchObject({ type: 'stdio', command: 'debugbridge', args: [] });
    expect(readme).toMatch(/\[mcp_servers\.debugbridge\]\n\s*command = "debugbridge"\n\s*args = \[\]/);
    expect(readme).toMatch(/claude mcp add debugbridge -- debugbridge/);
  });
});
