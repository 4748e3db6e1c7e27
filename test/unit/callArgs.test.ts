import { describe, expect, it } from 'vitest';
import { buildArguments, describeTool, splitCallArgv, type InputSchema } from '../../src/daemon/callArgs.js';

const launch: InputSchema = {
  properties: {
    program: { type: 'string' },
    args: { type: 'array', items: { type: 'string' } },
    env: { type: 'object' },
    waitForStop: { type: 'boolean' },
    timeoutMs: { type: 'integer' },
    breakpoints: {
      type: 'array',
      items: {
        type: 'object',
        properties: { file: { type: 'string' }, line: { type: 'integer' }, trace: { type: 'array', items: { anyOf: [{ type: 'string' }, { type: 'object', properties: { expression: { type: 'string' }, frameIndex: { type: 'integer' } }, required: ['expression'] }] } } },
        examples: [{ file: 'app.py', line: 12, condition: 'total > 100' }],
      },
    },
    exceptions: { type: 'string', enum: ['none', 'uncaught', 'all'] },
  },
  required: ['program'],
};

const evaluate: InputSchema = { properties: { expression: { type: 'string' }, expressions: { type: 'array', items: { type: 'string' } }, frameIndex: { type: 'integer' } } };
const trace: InputSchema = { properties: { trace: (launch.properties!.breakpoints.items!.properties!.trace) } };

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

  it('reads breakpoints as file:line or JSON objects (one or a list of them)', () => {
    expect(buildArguments('session_launch', ['--breakpoints', 'src/app.py:12', '--breakpoints', '{"file":"b.py","line":3,"condition":"x > 1"}'], launch)).toEqual({
      breakpoints: [{ file: 'src/app.py', line: 12 }, { file: 'b.py', line: 3, condition: 'x > 1' }],
    });
    expect(buildArguments('session_launch', ['--breakpoints', '[{"file":"a.py","line":1},{"file":"b.py","line":2}]'], launch)).toEqual({ breakpoints: [{ file: 'a.py', line: 1 }, { file: 'b.py', line: 2 }] });
  });

  describe('takes a value as written', () => {
    it.each([
      ['a list literal', '[56.34, 85.18].sort()'],
      ['brackets', 'items[0]["price"]'],
      ['double quotes', '"a,b".split(",")'],
      ['single quotes', "f'{x}'"],
      ['an empty list', '[]'],
      ['a JSON list of strings', '["-v","--x"]'],
      ['a dict literal', '{1: 2}'],
    ])('%s', (_, value) => {
      expect(buildArguments('inspect_evaluate', ['--expression', value], evaluate)).toEqual({ expression: value });
      expect(buildArguments('inspect_evaluate', ['--expressions', value, '--expressions', 'x'], evaluate)).toEqual({ expressions: [value, 'x'] });
    });

    it('a list item per flag, never a JSON list', () => {
      expect(buildArguments('session_launch', ['--args', '["-v","--x"]', '--args', '[]'], launch)).toEqual({ args: ['["-v","--x"]', '[]'] });
    });

    it('an item that is text or an object: a JSON object is the object, anything else the text', () => {
      expect(buildArguments('breakpoint_set', ['--trace', 'total', '--trace', '{"frameIndex":1,"expression":"order.id"}', '--trace', '{a: 1}', '--trace', '[1, 2]'], trace)).toEqual({
        trace: ['total', { frameIndex: 1, expression: 'order.id' }, '{a: 1}', '[1, 2]'],
      });
    });

    it('numbers and booleans only where the argument is one', () => {
      expect(buildArguments('inspect_evaluate', ['--expression', '12', '--frame-index', '1'], evaluate)).toEqual({ expression: '12', frameIndex: 1 });
    });
  });

  it('takes one JSON object for all arguments, flags after it overriding', () => {
    expect(buildArguments('session_launch', ['{"program":"a.py","timeoutMs":1}', '--timeout-ms', '2'], launch)).toEqual({ program: 'a.py', timeoutMs: 2 });
  });

  it('refuses what the tool cannot take, naming what it takes', () => {
    expect(() => buildArguments('session_launch', ['--programme', 'a.py'], launch)).toThrow(/session_launch has no argument --programme\. It takes: --program, --args/);
    expect(() => buildArguments('session_launch', ['--timeout-ms', 'soon'], launch)).toThrow(/--timeoutMs takes a number, not "soon"/);
    expect(() => buildArguments('session_launch', ['--env', '{oops'], launch)).toThrow(/--env is not valid JSON/);
    expect(() => buildArguments('session_launch', ['--env', '["A"]'], launch)).toThrow(/--env takes a JSON object/);
    expect(() => buildArguments('session_launch', ['--breakpoints', '[1, 2]'], launch)).toThrow(/--breakpoints takes JSON objects/);
    expect(() => buildArguments('session_launch', ['app.py'], launch)).toThrow(/Unexpected "app.py"/);
    expect(() => buildArguments('session_launch', ['--program'], launch)).toThrow(/--program needs a value/);
    expect(() => buildArguments('session_launch', ['--breakpoints', 'nowhere'], launch)).toThrow(/JSON objects or file:line/);
  });

  it('describes a tool with its arguments and their types, the fields of nested objects with an example, and the value rule', () => {
    const text = describeTool({ name: 'session_launch', description: 'Starts a program.', inputSchema: launch });
    expect(text).toMatch(/--program <string> \(required\)/);
    expect(text).toMatch(/--args <string\[\]> \(repeatable\)/);
    expect(text).toMatch(/--exceptions <none\|uncaught\|all>/);
    expect(text).toMatch(/--breakpoints <object\[\]> \(repeatable\)\n +\{ file\?: string, line\?: integer, trace\?: \(string\|object\)\[\] \}\n +e\.g\. --breakpoints '\{"file":"app\.py","line":12,"condition":"total > 100"\}'/);
    expect(text).toContain('Values are taken as written');
    expect(describeTool({ name: 'breakpoint_set', inputSchema: trace })).toMatch(/--trace <\(string\|object\)\[\]> \(repeatable\)\n +\{ expression: string, frameIndex\?: integer \}/);
  });
});
