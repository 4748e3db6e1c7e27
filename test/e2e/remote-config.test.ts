/**
 * Targets named in config files (the user's config.json, the working folder's debugbridge.json)
 * beside DEBUGBRIDGE_TARGETS, merged by name with the variable winning, through the real MCP
 * client over stdio; and `debugbridge doctor --target NAME` run as a user runs it, on targets
 * whose far side has everything, lacks debugpy, runs another version, or has no agent at all.
 */
import { execFile } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { markerLine } from '../../src/demo/markers.js';
import { McpTestClient } from '../../src/demo/mcpClient.js';
import { VERSION } from '../../src/version.js';
import { CLI, namespaceCommand, namespacesWork, packageOfVersion } from '../support/remoteTargets.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';
import { stopActiveSessions } from '../support/sessions.js';

const FIXTURES = fileURLToPath(new URL('../fixtures/e2e/remote/', import.meta.url));

const run =
  process.platform === 'linux' &&
  requireRuntime('python with debugpy and unshare that can make PID and mount namespaces', hasCommand('/usr/bin/python3', ['-c', 'import debugpy']) && namespacesWork());

interface Wait {
  status: string;
  stop?: { reason: string; frame: { name: string; file?: string; line: number } };
  exitCode?: number;
}

describe.runIf(run)('targets from config files', () => {
  const root = mkdtempSync(join(tmpdir(), 'dbb-remote-config-'));
  /** The project the server starts in, with its debugbridge.json. */
  const project = join(root, 'shop');
  const configHome = join(root, 'config-home');
  const jailFar = join(root, 'jail-srv');
  const agent = [process.execPath, CLI, 'agent'];
  const env = {
    XDG_CONFIG_HOME: configHome,
    DEBUGBRIDGE_STATE_DIR: join(root, 'state'),
    // The variable wins "shared" over both files.
    DEBUGBRIDGE_TARGETS: JSON.stringify({ shared: { command: agent } }),
  };
  const program = join(project, 'invoice.py');
  const line = () => markerLine(program, 'BP:line_total');

  beforeAll(() => {
    mkdirSync(project, { recursive: true });
    copyFileSync(join(FIXTURES, 'invoice.py'), program);
    // "." is the file's own folder: the project is /srv/shop inside the namespace.
    writeFileSync(
      join(project, 'debugbridge.json'),
      JSON.stringify({ targets: { jail: { command: namespaceCommand(project, jailFar), pathMappings: [{ local: '.', remote: jailFar }] }, shared: { command: ['false'] } } }),
    );
    mkdirSync(join(configHome, 'debugbridge'), { recursive: true });
    writeFileSync(
      join(configHome, 'debugbridge', 'config.json'),
      JSON.stringify({
        targets: {
          home: { command: agent },
          shared: { command: ['false'] },
          nopy: { command: ['env', 'DEBUGBRIDGE_PYTHON=/nowhere/python3', ...agent] },
          old: { command: [process.execPath, packageOfVersion(join(root, 'old-package'), '0.0.1-old'), 'agent'] },
          absent: { command: ['sh', '-c', 'exec debugbridge-absent agent'] },
        },
      }),
    );
  });

  describe('the MCP server', () => {
    let client: McpTestClient;
    beforeAll(async () => {
      client = await McpTestClient.start({ cwd: project, env });
    });
    afterAll(async () => {
      await client?.close();
    });
    afterEach(async () => {
      await stopActiveSessions(client);
    });

    it('knows the names of both files and the variable, merged', async () => {
      const launch = await client.call('session_launch', { program, target: 'nope' });
      expect(launch.text).toMatch(/No target "nope"\. Targets: home, shared, nopy, old, absent, jail\./);
    });

    it("a target of the folder's debugbridge.json, its path map relative to the file, binds a local breakpoint there", async () => {
      const launch = await client.call<Wait>('session_launch', { program, target: 'jail', breakpoints: [{ file: program, line: line() }], waitForStop: true });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.structured.stop).toMatchObject({ reason: 'breakpoint', frame: { name: 'line_total', file: program, line: line() } });
      const where = await client.call<{ value: string }>('inspect_evaluate', { expression: '__file__' });
      expect(where.structured.value).toBe(`'${join(jailFar, 'invoice.py')}'`);
    });

    it.each([
      { target: 'shared', from: 'DEBUGBRIDGE_TARGETS, over both files' },
      { target: 'home', from: "the user's config.json" },
    ])('$target runs as $from says', async ({ target }) => {
      const launch = await client.call<Wait>('session_launch', { program, target, waitForStop: true });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.structured).toMatchObject({ status: 'exited', exitCode: 4 });
    });
  });

  it('a config file that is not valid is named at first use, and the server goes on', async () => {
    const broken = join(root, 'broken');
    mkdirSync(broken, { recursive: true });
    writeFileSync(join(broken, 'debugbridge.json'), JSON.stringify({ targets: { web: { command: 'docker exec -i web debugbridge agent' } } }));
    const client = await McpTestClient.start({ cwd: broken, env: { ...env, DEBUGBRIDGE_TARGETS: '' } });
    try {
      const launch = await client.call('session_launch', { program, target: 'web' });
      expect(launch.isError).toBe(true);
      expect(launch.text).toContain(`INVALID_ARGUMENT: No target "web": ${join(broken, 'debugbridge.json')} at targets.web.command`);
      const local = await client.call<Wait>('session_launch', { program, waitForStop: true });
      expect(local.structured).toMatchObject({ status: 'exited', exitCode: 4 });
    } finally {
      await client.close();
    }
  });

  describe('debugbridge doctor --target', () => {
    async function doctor(target: string): Promise<{ code: number; out: string }> {
      try {
        const { stdout } = await promisify(execFile)(process.execPath, [CLI, 'doctor', '--target', target], { cwd: project, env: { ...process.env, ...env }, timeout: 90_000 });
        return { code: 0, out: stdout };
      } catch (e) {
        const failed = e as { code: number; stdout: string };
        return { code: failed.code, out: failed.stdout };
      }
    }

    it('a far side with everything: the agent, its version and platform, every language ok', async () => {
      const { code, out } = await doctor('jail');
      expect(out).toContain(`ok       agent   debugbridge ${VERSION}  (Node ${process.version} on linux-${process.arch})`);
      expect(out).toMatch(/ok {7}python +Python 3\.\d+\.\d+, debugpy/);
      expect(out).toMatch(/ok {7}node +Node\.js v/);
      expect(out).toMatch(/All languages work on jail\.|1 of 3 languages unavailable on jail/);
      expect(code).toBe(out.includes('All languages work') ? 0 : 1);
    });

    it('a far side without debugpy: python missing, with the command that installs it', async () => {
      const { code, out } = await doctor('nopy');
      expect(out).toMatch(/MISSING {2}python +No Python interpreter with debugpy found\. Tried: \/nowhere\/python3 \(not found\)\./);
      expect(out).toContain('fix: apt-get install python3-debugpy');
      expect(code).toBe(1);
    });

    it('an agent of another version: both versions, and the install that matches', async () => {
      const { code, out } = await doctor('old');
      expect(out).toContain(`MISSING  agent   Target "old" runs debugbridge agent 0.0.1-old; this server is debugbridge ${VERSION}.`);
      expect(out).toContain(`fix: Install debugbridge ${VERSION} on the far side (npm install -g debugbridge@${VERSION})`);
      expect(code).toBe(1);
    });

    it('no agent at the far end: the exec command, its own words, and how to install the agent', async () => {
      const { code, out } = await doctor('absent');
      expect(out).toMatch(/MISSING {2}agent {3}The connection to target "absent" was lost: sh exited with code 127\. Its last output: .*debugbridge-absent: not found/);
      expect(out).toContain(`fix: install debugbridge ${VERSION} where \`sh -c exec debugbridge-absent agent\` runs (npm install -g debugbridge@${VERSION}`);
      expect(code).toBe(1);
    });
  });
});
