/** zod shapes shared by several tools: stops, waits, breakpoints, session identity. */
import { z } from 'zod';
import { MAX_TRACE_HITS } from '../core/traceLog.js';

export const sessionIdInput = z
  .string()
  .optional();

/** How long a call may wait, in ms; the defaults are in the server's instructions. */
export const timeoutInput = z.number().int().min(0).max(3_600_000).optional();

/**
 * A target's name (debugbridge.json, the user config file, DEBUGBRIDGE_TARGETS): the program runs there, through `debugbridge agent`, and
 * paths stay local ones. No description: the tool list is near its budget, and a wrong name is
 * answered with the names there are.
 */
export const targetInput = z.string().min(1).optional();

export const stateSchema = z.enum(['initializing', 'running', 'stopped', 'exited', 'failed', 'terminated']);

export const sourceLineSchema = z.object({ line: z.number(), text: z.string(), current: z.boolean() });

export const frameSchema = z.object({
  name: z.string(),
  file: z.string().optional(),
  line: z.number(),
  column: z.number(),
});

export const valueSummarySchema = z.object({ name: z.string(), value: z.string(), type: z.string().optional(), previous: z.string().optional() });

export const watchValueSchema = z.object({
  id: z.number(),
  expression: z.string(),
  value: z.string().optional(),
  type: z.string().optional(),
  error: z.boolean().optional(),
  previous: z.string().optional(),
});

export const maxCharsInput = z.number().int().min(200).max(100_000).optional();

const placeSchema = z.object({ file: z.string().optional(), line: z.number(), column: z.number().optional() });

export const exceptionSchema = z.object({
  type: z.string().optional(),
  message: z.string().optional(),
  kind: z.string().optional(),
  stackTrace: z.string().optional(),
  thrownAt: placeSchema.optional(),
  causes: z
    .array(z.object({ type: z.string().optional(), message: z.string().optional(), relation: z.enum(['cause', 'context', 'inner', 'member']), thrownAt: placeSchema.optional() }))
    .optional(),
  moreCauses: z.number().optional(),
  frames: z
    .array(
      z.object({
        index: z.number(),
        name: z.string(),
        file: z.string().optional(),
        line: z.number(),
        external: z.number().optional(),
        times: z.number().optional(),
        async: z.boolean().optional(),
        catches: z.object({ file: z.string().optional(), line: z.number(), filter: z.boolean().optional() }).optional(),
      }),
    )
    .optional(),
  moreFrames: z.number().optional(),
  throwSource: z.array(sourceLineSchema).optional(),
  expected: z.string().optional(),
  actual: z.string().optional(),
  valuesExpression: z.object({ expected: z.string(), actual: z.string() }).optional(),
});

export const stopSchema = z.object({
  reason: z.string(),
  threadId: z.number(),
  threadName: z.string().optional(),
  frameIndex: z.number().describe('Current frame (inspect_stack index); the default of frame-taking calls.'),
  frame: frameSchema,
  source: z.array(sourceLineSchema).optional(),
  hitBreakpointIds: z.array(z.number()),
  exception: exceptionSchema.optional(),
  locals: z.array(valueSummarySchema).optional(),
  localsOmitted: z.number().optional(),
  watches: z.array(watchValueSchema).optional(),
  description: z.string().optional(),
});

export const sessionScoped = {
  sessionId: z.string(),
  state: stateSchema,
};

/** The hang report: identical stacks grouped; what each group waits on; cycles of waits (deadlocks). */
export const hangSchema = z.object({
  groups: z.array(
    z.object({
      threadIds: z.array(z.number()),
      names: z.array(z.string()),
      frames: z.array(frameSchema),
      totalFrames: z.number().optional(),
      wait: z.object({ kind: z.string(), object: z.string().optional(), ownerThreadId: z.number().optional() }).optional(),
      holds: z.array(z.object({ object: z.string(), file: z.string().optional(), line: z.number() })).optional(),
      error: z.string().optional(),
    }),
  ),
  deadlocks: z.array(z.array(z.number())),
  tasks: z
    .array(
      z.object({
        count: z.number(),
        frames: z.array(frameSchema.extend({ async: z.boolean().optional() })),
        waitsOn: z.object({ kind: z.string(), object: z.string().optional(), what: z.string().optional() }),
        blockedThreadIds: z.array(z.number()).optional(),
      }),
    )
    .optional()
    .describe('Async chains no thread runs (.NET), innermost frame first, identical chains counted.'),
  tasksOmitted: z.number().optional(),
  tasksUnread: z.number().optional(),
  tasksUnavailable: z.string().optional(),
  asyncDeadlocks: z
    .array(z.object({ kind: z.enum(['cycle', 'syncOverAsync']), frames: z.array(frameSchema), threadId: z.number().optional(), context: z.string().optional() }))
    .optional(),
});

/** A test run's verdict: passed, failed (with the runner's failure report), no test, did not run, or stopped by the user. */
export const verdictSchema = z.object({
  status: z.enum(['passed', 'failed', 'no tests', 'error', 'stopped']),
  counts: z.string().optional(),
  failureSummary: z.string().optional(),
});

export const waitResultShape = {
  ...sessionScoped,
  status: z.enum(['stopped', 'exited', 'timeout', 'blocked']),
  stop: stopSchema.optional(),
  exitCode: z.number().optional(),
  exitSignal: z.string().optional().describe('The signal that killed the program (e.g. SIGKILL), when one did.'),
  outputTail: z.string().optional(),
  verdict: verdictSchema.optional(),
  error: z.string().optional(),
  waitedMs: z.number(),
  hang: hangSchema.optional(),
};

export const breakpointViewSchema = z.object({
  id: z.number(),
  file: z.string().optional(),
  line: z.number().optional(),
  column: z.number().optional(),
  function: z.string().optional(),
  status: z.enum(['verified', 'pending', 'unverified']),
  verified: z.boolean(),
  actualLine: z.number().optional(),
  actualColumn: z.number().optional(),
  /** Where it bound, when that is another file than asked (a function breakpoint: the file that defines it). */
  actualFile: z.string().optional(),
  message: z.string().optional(),
  condition: z.string().optional(),
  hitCondition: z.string().optional(),
  logMessage: z.string().optional(),
  trace: z.array(z.string()).optional(),
  maxHits: z.number().optional(),
  enabled: z.boolean().optional(),
  hits: z.number(),
});

/** A trace column: an expression in the hit's frame, or frameIndex frames up (frames with source counted). */
export const traceItemInput = z.union([z.string().min(1), z.strictObject({ expression: z.string().min(1), frameIndex: z.number().int().min(0).optional() })]);

/**
 * What a breakpoint takes, wherever one is given (breakpoint_set, and the breakpoints of
 * session_launch, session_attach, debug_probe and debug_test): one shape, one set of checks
 * (server/breakpointArgs.ts).
 */
export const breakpointFields = {
  file: z.string().optional(),
  line: z.number().int().min(1).optional(),
  column: z.number().int().min(1).optional(),
  function: z.string().optional(),
  condition: z.string().optional(),
  hitCondition: z.string().optional(),
  logMessage: z.string().optional(),
  trace: z.array(traceItemInput).max(10).optional(),
  maxHits: z.number().int().min(1).max(MAX_TRACE_HITS).optional(),
  enabled: z.boolean().optional(),
};

export const breakpointInput = z
  .strictObject(breakpointFields)
  .meta({ examples: [{ file: 'app.py', line: 12, condition: 'total > 100' }, { file: 'app.py', line: 12, trace: ['total', { frameIndex: 1, expression: 'order.id' }, '$CALLER'] }] });

export const exceptionModeInput = z
  .enum(['none', 'uncaught', 'all'])
  .optional()
  .describe('Default uncaught.');
