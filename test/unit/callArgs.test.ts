import { describe, expect, it } from 'vitest';
import { buildArguments, describeTool, splitCallArgv, type InputSchema } from '../../src/daemon/callArgs.js';

const launch: InputSchema = {
  properties: {
    program: { type: 'string' },
    args: { type: 'array', items: { type: 'string' } },
    env: { type: 'object' },
    waitForStop: { type: 'boolean' },
    timeoutMs: { type: 'integer' },
    breakpoints: { type: 'array', items: { type: 'object', properties: { file: { type: 'string' }, line: { type: 'integer' } } } },
    exceptions: { type: 'string', enum: ['none', 'uncaught', 'all'] },
  },
  required: ['program'],
};

describe('debugbridge call arguments', () => {
  it('separates the command options and the tool name from the tool arguments', () => {
    expect(splitCallArgv(['session_launch', '--program', 'a.py', '--json'])).toEqual({ tool: 'session_launch', words: ['--program', 'a.py'], json: true, help: false });
    expect(splitCallArgv(['--help', 'inspect_stack'])).toMatchObject({ tool: 'inspect_stack', help: true });
  });

  it('types each value by the schema, kebab-case names included', () => {
    const args = buildArguments('session_launch', ['--program', 'app.py', '--timeout-ms', '5000', '--wait-for-stop', '--args', 'a', '--args=--verbose', '--env', '{"A":"1"}'], launch);
    expect(args).toEqual({ program: 'app.py', timeoutMs: 5000, waitForStop: true, args: ['a', '--verbose'], env: { A: '1' } });
    expect(buildArguments('session_launch', ['--wait-for-stop', 'false', '--program', 'x'], launch)).toEqual({ waitForStop: false, program: 'x' });
  });

  it('reads breakpoints as file:line or JSON, and arrays as JSON', () => {
    expect(buildArguments('session_launch', ['--breakpoints', 'src/app.py:12', '--breakpoints', '{"file":"b.py","line":3,"condition":"x > 1"}'], launch)).toEqual({
      breakpoints: [{ file: 'src/app.py', line: 12 }, { file: 'b.py', line: 3, condition: 'x > 1' }],
    });
    expect(buildArguments('session_launch', ['--args', '["-v","--x"]'], launch)).toEqual({ args: ['-v', '--x'] });
  });

  it('takes one JSON object for all arguments, flags after it overriding', () => {
    expect(buildArguments('session_launch', ['{"program":"a.py","timeoutMs":1}', '--timeout-ms', '2'], launch)).toEqual({ program: 'a.py', timeoutMs: 2 });
  });

  it('refuses what the tool cannot take, naming what it takes', () => {
    expect(() => buildArguments('session_launch', ['--programme', 'a.py'], launch)).toThrow(/session_launch has no argument --programme\. It takes: --program, --args/);
    expect(() => buildArguments('session_launch', ['--timeout-ms', 'soon'], launch)).toThrow(/--timeoutMs takes a number, not "soon"/);
    expect(() => buildArguments('session_launch', ['--env', '{oops'], launch)).toThrow(/--env is not valid JSON/);
    expect(() => buildArguments('session_launch', ['app.py'], launch)).toThrow(/Unexpected "app.py"/);
    expect(() => buildArguments('session_launch', ['--program'], launch)).toThrow(/--program needs a value/);
    expect(() => buildArguments('session_launch', ['--breakpoints', 'nowhere'], launch)).toThrow(/JSON objects or file:line/);
  });

  it('describes a tool with its arguments and their types', () => {
    const text = describeTool({ name: 'session_launch', description: 'Starts a program.', inputSchema: launch });
    expect(text).toMatch(/--program <string> \(required\)/);
    expect(text).toMatch(/--args <string\[\]>/);
    expect(text).toMatch(/--exceptions <none\|uncaught\|all>/);
  });
});
