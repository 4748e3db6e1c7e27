/**
 * Test group: test_list (the tests a framework finds, with the ids debug_test takes) and
 * debug_test (one test under the debugger, stopped where it fails by default).
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DebugError, toDebugError } from '../core/errors.js';
import type { Session } from '../core/session.js';
import type { SessionManager } from '../core/sessionManager.js';
import type { FinishedRun, PreparedTest } from '../testing/testRun.js';
import { FRAMEWORKS } from '../testing/types.js';
import { breakpointRequests, resolveCwd, startOrExplain } from './launchArgs.js';
import { renderFinished, renderTestList, renderTestStop } from './renderTest.js';
import { breakpointInput, breakpointViewSchema, exceptionModeInput, sessionScoped, stopSchema, targetInput, timeoutInput, verdictSchema } from './schemas.js';
import { breakpointView, stopView } from './structured.js';
import { defineTool } from './toolKit.js';

const DEFAULT_TEST_TIMEOUT_MS = 120_000;
const DEFAULT_LIST_LIMIT = 100;

/** The runners' code (some twenty modules, the .NET addon's loader among them) loads with the first test call, not with the server. */
const testRun = () => import('../testing/testRun.js');
const remoteTests = () => import('../remote/remoteTests.js');

const frameworkInput = z.enum(FRAMEWORKS).optional().describe('Default: from path.');

const resultSchema = verdictSchema.extend({ exitCode: z.number().optional() });

const failureSchema = z.object({
  frameIndex: z.number(),
  frame: z.object({ name: z.string(), file: z.string().optional(), line: z.number() }),
  type: z.string().optional(),
  message: z.string().optional(),
  expected: z.string().optional(),
  actual: z.string().optional(),
  locals: z.array(z.object({ name: z.string(), value: z.string(), type: z.string().optional() })).optional(),
});

export function registerTestTools(server: McpServer, manager: SessionManager): void {
  defineTool(
    server,
    'test_list',
    {
      title: 'List tests',
      description: 'Tests under a path, with the ids debug_test takes.',
      input: {
        path: z.string().min(1),
        framework: frameworkInput,
        filter: z.string().optional().describe('Substring of ids.'),
        limit: z.number().int().min(1).max(2000).optional().describe(`Default ${DEFAULT_LIST_LIMIT}.`),
        cwd: z.string().optional().describe('Default: project root.'),
        timeoutMs: timeoutInput.describe('More time for a project the runner builds first (.NET).'),
        target: targetInput,
      },
      output: {
        framework: z.string(),
        tests: z.array(z.object({ id: z.string(), file: z.string().optional(), line: z.number().optional() })),
        total: z.number(),
        truncated: z.boolean(),
      },
      annotations: { readOnlyHint: true },
    },
    async (args, ctx) => {
      // On a target the tests are the far side's: listed there, from the paths mapped.
      const listing = args.target
        ? await (await remoteTests()).listRemoteTests(manager.targets, args.target, { framework: args.framework, ...targetPaths(manager, args.path, args.cwd) }, ctx.signal)
        : await (await testRun()).listTests({ path: agentPath(manager, args.path, args.cwd), framework: args.framework, cwd: args.cwd }, ctx.signal);
      const needle = args.filter?.toLowerCase();
      const matching = needle ? listing.tests.filter((t) => t.id.toLowerCase().includes(needle)) : listing.tests;
      const shown = matching.slice(0, args.limit ?? DEFAULT_LIST_LIMIT);
      return {
        text: renderTestList(listing.framework, shown, matching.length, args.filter),
        data: { framework: listing.framework, tests: shown, total: matching.length, truncated: shown.length < matching.length },
      };
    },
  );

  defineTool(
    server,
    'debug_test',
    {
      title: 'Debug a test',
      description:
        'Runs a test (or file / project) with its runner (see framework) under the debugger; ' +
        'it stops where the test fails unless breakpoints are given.',
      input: {
        path: z.string().min(1),
        test: z.string().optional().describe('Id from test_list, name or name pattern.'),
        framework: frameworkInput,
        breakpoints: z.array(breakpointInput).optional(),
        stopAtFailure: z.boolean().optional().describe('Default: no breakpoints given.'),
        exceptions: exceptionModeInput,
        timeoutMs: timeoutInput,
        cwd: z.string().optional().describe('Default: project root.'),
        target: targetInput,
      },
      output: {
        ...sessionScoped,
        framework: z.string(),
        commandLine: z.string(),
        status: z.enum(['stopped', 'finished', 'timeout']),
        stop: stopSchema.optional(),
        failure: failureSchema.optional(),
        result: resultSchema.optional(),
        breakpoints: z.array(breakpointViewSchema),
        outputTail: z.string().optional(),
      },
    },
    async (given, ctx) => {
      const once = async (args: typeof given) => {
        const timeoutMs = args.timeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
        const deadline = Date.now() + timeoutMs;
        const { prepareTest, failureView } = await testRun();
        const input = { test: args.test, framework: args.framework, stopAtFailure: args.stopAtFailure ?? !args.breakpoints?.length, exceptions: args.exceptions };
        // On a target the tests are the far side's: the run is planned there, from the paths mapped.
        const prepared = args.target ? undefined : await prepareTest(manager.registry, { ...input, path: agentPath(manager, args.path, args.cwd), cwd: args.cwd });
        const run = prepared
          ? { framework: prepared.plan.framework, commandLine: prepared.plan.commandLine, config: prepared.config, factory: prepared.factory }
          : await (await remoteTests()).prepareRemoteTest(manager.targets, manager.registry, args.target!, { ...input, ...targetPaths(manager, args.path, args.cwd) });
        // Breakpoint paths are the agent's: relative to the cwd it gave, else the server's.
        const breakpoints = breakpointRequests(manager, args, args.target ? run.config.cwd : resolveCwd(manager, args.cwd));
        const session = await manager.create(run.config, breakpoints, undefined, undefined, run.factory);
        const head = `${run.framework}: ${run.commandLine}`;
        const base = () => ({
          sessionId: session.id,
          framework: run.framework,
          commandLine: run.commandLine,
          breakpoints: session.breakpoints.all(false).map(breakpointView),
        });
        const finishedAnswer = (ended: FinishedRun) => {
          const outputTail = session.output.tail();
          return {
            text: renderFinished(session.id, head, ended, outputTail),
            data: { ...base(), state: session.state, status: 'finished' as const, result: { ...ended.outcome, exitCode: ended.exitCode }, outputTail },
          };
        };
        try {
          await startOrExplain(manager, session, timeoutMs, ctx.signal);
        } catch (e) {
          if (!prepared) throw e;
          const ended = await explainRunnerEnd(e, prepared, ctx.signal);
          if (ended instanceof DebugError) throw ended;
          return finishedAnswer(ended);
        }
        const wait = await session.waitForStop({ timeoutMs: Math.max(0, deadline - Date.now()), signal: ctx.signal, onProgress: ctx.progress });
        if (wait.status === 'stopped' && wait.stop) {
          return {
            text: renderTestStop(session.id, head, wait.stop),
            data: { ...base(), state: session.state, status: 'stopped' as const, stop: stopView(wait.stop), failure: failureView(wait.stop) },
          };
        }
        if (wait.status === 'exited') {
          const ended = await finished(session, prepared, ctx.signal);
          if (args.target && args.test && ended.outcome.status === 'no tests') {
            throw await (await remoteTests()).remoteTestNotFound(manager.targets, args.target, run.framework, { ...input, ...targetPaths(manager, args.path, args.cwd) }, ctx.signal);
          }
          return finishedAnswer(ended);
        }
        return {
          text: `[${session.id}] ${head}\nNo stop and no end within ${timeoutMs} ms; the test is ${session.state}. Call breakpoint_wait to wait on, execution_pause to see where it is, or session_stop.`,
          data: { ...base(), state: session.state, status: 'timeout' as const },
        };
      };
      try {
        return await once(given);
      } catch (e) {
        // A name that is part of tests' names (a describe block's) runs those tests, as the runner's own -t does.
        if (e instanceof RunAgain) return once({ ...given, test: e.pattern });
        throw e;
      }
    },
  );
}

/** The test path, absolute and under the roots the server may read (relative to cwd, else the server's). */
function agentPath(manager: SessionManager, path: string, cwd: string | undefined): string {
  return manager.resolveProgram(path, resolveCwd(manager, cwd));
}

/** A target's test paths: absolute and under the roots, but they need not exist here (the far side checks). */
function targetPaths(manager: SessionManager, path: string, cwd: string | undefined): { path: string; cwd?: string } {
  const base = cwd ? manager.paths.resolve(cwd, process.cwd(), 'cwd') : undefined;
  return { path: manager.paths.resolve(path, base ?? process.cwd(), 'path'), cwd: base };
}

/** A name that is part of tests' names: the run to make instead, with the runner's own pattern for it. */
class RunAgain {
  constructor(readonly pattern: string) {}
}

/** The run is over: its result, or what a named test that ran nothing means. */
async function finished(session: Session, prepared: PreparedTest | undefined, signal: AbortSignal): Promise<FinishedRun> {
  const run = (await testRun()).finishedRun(session);
  if (run.outcome.status === 'no tests' && prepared?.request.test) return unmatched(prepared, run.exitCode, signal);
  return run;
}

/** A named test that ran nothing: skipped, a part of tests' names (run again), or TEST_NOT_FOUND. */
async function unmatched(prepared: PreparedTest, exitCode: number | undefined, signal: AbortSignal): Promise<FinishedRun> {
  const { unmatchedTest, skippedRun } = await testRun();
  const found = await unmatchedTest(prepared, signal);
  if ('error' in found) throw found.error;
  if ('pattern' in found) throw new RunAgain(found.pattern);
  return skippedRun(found.skipped, exitCode);
}

/** A hosted runner that ended before its test process started: no such test, or the runner's own error. */
async function explainRunnerEnd(e: unknown, prepared: PreparedTest, signal: AbortSignal): Promise<DebugError | FinishedRun> {
  const error = toDebugError(e);
  const output = error.details?.runnerOutput;
  if (typeof output !== 'string') return error;
  const { endedEarly, testNotListed } = await testRun();
  const run = endedEarly(prepared.plan, output, error.details?.runnerExitCode as number | undefined);
  if (run.outcome.status === 'no tests' && prepared.request.test) return unmatched(prepared, run.exitCode, signal);
  const unlisted = run.exitCode === 0 ? await testNotListed(prepared, signal) : undefined;
  if (unlisted) return unlisted;
  return new DebugError('LAUNCH_FAILED', `${prepared.plan.commandLine} ended before running the test (exit code ${run.exitCode ?? 'unknown'}).\n${run.outcome.failureSummary ?? output.trim().split('\n').slice(-15).join('\n')}`, 'Fix what it says (build errors, configuration), then run again.');
}
