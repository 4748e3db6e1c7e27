import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_PATH, McpTestClient } from '../../src/demo/mcpClient.js';

const TOOLS = [
  'languages_list', 'session_launch', 'session_attach', 'session_state', 'session_list', 'session_stop', 'session_restart',
  'session_apply_changes', 'session_output', 'session_events', 'session_diagnostics', 'breakpoint_set', 'breakpoint_remove', 'breakpoint_list',
  'breakpoint_exceptions', 'breakpoint_wait', 'execution_continue', 'execution_step', 'execution_pause', 'execution_run_to',
  'execution_jump',
  'inspect_threads', 'inspect_stack', 'inspect_variables', 'inspect_evaluate', 'inspect_set_variable', 'inspect_source', 'debug_probe',
  'test_list', 'debug_test', 'watch_add', 'watch_remove', 'watch_list', 'breakpoint_trace',
];

describe('MCP server surface', () => {
  let client: McpTestClient;
  const stateDir = mkdtempSync(join(tmpdir(), 'dbb-e2e-state-'));

  beforeAll(async () => {
    client = await McpTestClient.start({ env: { DEBUGBRIDGE_STATE_DIR: stateDir } });
  });
  afterAll(async () => {
    await client?.close();
  });

  it('lists every tool of the contract with input and output schemas and annotations', async () => {
    const { tools } = await client.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual([...TOOLS].sort());
    for (const tool of tools) {
      expect(tool.outputSchema, tool.name).toBeDefined();
      expect(tool.description?.length, tool.name).toBeGreaterThan(20);
    }
    const byName = Object.fromEntries(tools.map((t) => [t.name, t]));
    // Lean: clients that hand the whole list to the model pay for every byte of it.
    expect(JSON.stringify(tools).length).toBeLessThanOrEqual(30_000);
    expect(JSON.stringify(tools.map(({ name, description, inputSchema }) => ({ name, description, inputSchema }))).length).toBeLessThanOrEqual(14_000);
    expect(byName.execution_continue.outputSchema?.properties?.stop).toEqual({ type: 'object', description: expect.stringMatching(/instructions/) });
    expect(byName.inspect_variables.annotations?.readOnlyHint).toBe(true);
    expect(byName.session_stop.annotations?.destructiveHint).toBe(true);
  });

  it('teaches the workflow in its instructions', () => {
    const instructions = client.client.getInstructions() ?? '';
    expect(instructions).toMatch(/session_launch.*breakpoint_wait/s);
  });

  it('answers a session id that does not exist with SESSION_NOT_FOUND and the next step', async () => {
    const r = await client.call('session_state', { sessionId: 'nope-1' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^SESSION_NOT_FOUND: /);
    expect(r.text).toMatch(/Next: /);
    const none = await client.call('breakpoint_wait', {});
    expect(none.text).toMatch(/^SESSION_NOT_FOUND: .*session_launch/s);
  });

  it('answers a missing program with PROGRAM_NOT_FOUND', async () => {
    const r = await client.call('session_launch', { program: '/no/such/program.py' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^PROGRAM_NOT_FOUND: \/no\/such\/program\.py/);
  });

  it('answers bad arguments with INVALID_ARGUMENT', async () => {
    const r = await client.call('execution_step', { kind: 'sideways' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^INVALID_ARGUMENT: /);
  });

  it('answers a language it cannot debug with ENGINE_UNAVAILABLE, or an unknown one with the install command', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'dbb-e2e-'));
    const program = join(dir, 'prog.rb');
    writeFileSync(program, 'puts 1\n');
    const r = await client.call('session_launch', { program, language: 'ruby' });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^ENGINE_UNAVAILABLE: .*debugbridge-engine-ruby/s);
    const guess = await client.call('session_launch', { program });
    expect(guess.text).toMatch(/^INVALID_ARGUMENT: Cannot tell the language/);
  });

  it('lists every built-in language with availability', async () => {
    const r = await client.call<{ languages: { language: string; available: boolean; reason?: string }[] }>('languages_list');
    expect(r.isError).toBe(false);
    expect(r.structured.languages.map((l) => l.language)).toEqual(['python', 'node', 'dotnet']);
    for (const l of r.structured.languages) if (!l.available) expect(l.reason, l.language).toBeTruthy();
  });

  it('reads source without a session', async () => {
    const r = await client.call<{ lines: { line: number; current: boolean }[] }>('inspect_source', { file: CLI_PATH, line: 3, before: 1, after: 1 });
    expect(r.isError).toBe(false);
    expect(r.structured.lines.map((l) => l.line)).toEqual([2, 3, 4]);
    expect(r.text).toMatch(/^> +3 \|/m);
  });
});

describe('command line', () => {
  it('prints its version and help', () => {
    expect(execFileSync(process.execPath, [CLI_PATH, '--version'], { encoding: 'utf8' }).trim()).toMatch(/^\d+\.\d+\.\d+$/);
    const help = execFileSync(process.execPath, [CLI_PATH, '--help'], { encoding: 'utf8' });
    for (const cmd of ['demo', 'doctor', 'reload']) expect(help).toContain(`debugbridge ${cmd}`);
  });

  it('doctor names each language and a fix for the missing ones', () => {
    let out: string;
    try {
      out = execFileSync(process.execPath, [CLI_PATH, 'doctor'], { encoding: 'utf8' });
    } catch (e) {
      out = (e as { stdout: string }).stdout;
    }
    for (const lang of ['python', 'node', 'dotnet']) expect(out).toMatch(new RegExp(`(ok|MISSING) +${lang}`));
    for (const m of out.matchAll(/MISSING +\S+ .*\n(.*)/g)) expect(m[1]).toMatch(/fix: /);
    // The build's V8 code cache is one this Node.js takes: the server's tools load precompiled.
    expect(out).toContain('start-up code cache: used');
  });
});
