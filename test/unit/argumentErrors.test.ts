/** How a tool's arguments that do not fit its schema are told: each problem by its path, an unknown key with the keys that place takes. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { argumentPath, describeArgumentIssues } from '../../src/server/argumentErrors.js';
import { breakpointFields, breakpointInput } from '../../src/server/schemas.js';

const launch = z.strictObject({ program: z.string(), breakpoints: z.array(breakpointInput).optional(), env: z.record(z.string(), z.string()).optional() });
const describe_ = (args: unknown) => {
  const parsed = launch.safeParse(args);
  if (parsed.success) throw new Error('expected a failure');
  return describeArgumentIssues('session_launch', launch, parsed.error.issues);
};

describe('argument errors', () => {
  it('write paths as an agent writes them', () => {
    expect(argumentPath(['breakpoints', 0, 'trace', 1])).toBe('breakpoints[0].trace[1]');
    expect(argumentPath([])).toBe('');
  });

  it('name an unknown key at the top, with the closest key and what the tool takes', () => {
    expect(describe_({ program: 'a.py', programme: 'b.py' })).toBe(
      "INVALID_ARGUMENT: session_launch: programme: unknown argument (did you mean program?); session_launch takes: program, breakpoints, env.\nNext: fix the arguments named above (the tool's input schema has them).",
    );
  });

  it('name an unknown key in a nested object and in a union\'s object form, by path', () => {
    const text = describe_({ program: 'a.py', breakpoints: [{ file: 'a.py', line: 3 }, { file: 'a.py', line: 4, when: 'x', trace: ['x', { expression: 'y', frame: 1 }] }] });
    expect(text).toContain(`breakpoints[1].when: unknown argument; breakpoints[1] takes: ${Object.keys(breakpointFields).join(', ')}`);
    expect(text).toContain('breakpoints[1].trace[1].frame: unknown argument (did you mean frameIndex?); breakpoints[1].trace[1] takes: expression, frameIndex');
  });

  it('tell a wrong type by its path, and a missing argument', () => {
    expect(describe_({ breakpoints: [{ file: 'a.py', line: 'three' }] })).toMatch(/^INVALID_ARGUMENT: session_launch: program: expected string, received undefined; breakpoints\[0\]\.line: expected number, received string\./);
  });
});
