/** Session group: languages, launch/attach, state, list, stop, restart, output, events, diagnostics. */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { BUILT_IN_LANGUAGES, type EngineRegistry } from '../core/engineRegistry.js';
import { mappingsFrom } from '../core/pathMap.js';
import { pathMappingsShape } from '../remote/targetConfig.js';
import { DebugError } from '../core/errors.js';
import { describeExit } from '../core/eventSummary.js';
import type { Session } from '../core/session.js';
import type { SessionManager } from '../core/sessionManager.js';
import type { WaitResult } from '../core/sessionTypes.js';
import { breakpointRequests, DEFAULT_LAUNCH_TIMEOUT_MS, exceptionConfig, launchInput, launchSession, requireKnownOptions, resolveCwd, startOrExplain } from './launchArgs.js';
import { renderBreakpoints, renderEvents, renderLanguages, renderSessionEnd, renderVerdict, renderWait } from './render.js';
import { breakpointInput, breakpointViewSchema, exceptionModeInput, sessionIdInput, sessionScoped, stateSchema, stopSchema, targetInput, timeoutInput, verdictSchema, waitResultShape } from './schemas.js';
import { breakpointView, stopView } from './structured.js';
import { defineTool, type ToolContext } from './toolKit.js';

/** Recoverable and ended sessions listed; the rest are counted. */
const LISTED_RECOVERABLE = 10;
const LISTED_ENDED = 5;
/** Characters of events in one session_events answer. */
const EVENTS_ANSWER_CHARS = 64_000;

const startedShape = {
  ...sessionScoped,
  language: z.string(),
  program: z.string(),
  pid: z.number().optional(),
  note: z.string().optional(),
  breakpoints: z.array(breakpointViewSchema),
  status: waitResultShape.status.optional(),
  stop: stopSchema.optional(),
  exitCode: z.number().optional(),
  exitSignal: z.string().optional(),
  outputTail: z.string().optional(),
};

/**
 * The answer of launch, attach and restart: the session, its breakpoints, and the first stop if
 * asked for. Starting and waiting share one deadline: timeoutMs bounds the whole call.
 */
async function startedAnswer(session: Session, waitForStop: boolean | undefined, deadline: number, ctx: ToolContext) {
  const snap = session.snapshot();
  const bps = session.breakpoints.all(false);
  let wait: WaitResult | undefined;
  if (waitForStop) wait = await session.waitForStop({ timeoutMs: Math.max(0, deadline - Date.now()), signal: ctx.signal, onProgress: ctx.progress });
  const head = `[${session.id}] ${snap.attached ? 'Attached to' : 'Launched'} ${snap.program}${snap.pid ? ` (pid ${snap.pid})` : ''}; ${session.state}.${snap.launchNote ? `\n${snap.launchNote}` : ''}`;
  const bpText = bps.length ? `\nBreakpoints:\n${renderBreakpoints(bps)}` : '';
  const ended = !wait && !session.active ? { status: 'exited' as const, state: session.state, exitCode: session.exitCode, exitSignal: session.exitSignal, outputTail: session.output.tail(), waitedMs: 0 } : undefined;
  const settled = wait ?? ended;
  const waitText = settled ? `\n${renderWait(session.id, settled)}` : session.state === 'running' ? '\nNext: breakpoint_wait for the first stop.' : '';
  return {
    text: head + bpText + waitText,
    data: {
      sessionId: session.id,
      state: session.state,
      language: snap.language,
      program: snap.program,
      pid: snap.pid,
      note: snap.launchNote,
      breakpoints: bps.map(breakpointView),
      status: settled?.status,
      stop: wait?.stop ? stopView(wait.stop) : undefined,
      exitCode: settled?.exitCode ?? session.exitCode,
      exitSignal: settled?.exitSignal ?? session.exitSignal,
      outputTail: settled?.outputTail,
    },
  };
}

/**
 * Which runtime an attach is to, and what the session calls the program: without a language, a
 * port here is asked what listens (EngineRegistry.listenerAt), and the answer says what it found; a pid,
 * or a port on a target's far side, needs the language.
 */
async function attachedRuntime(registry: EngineRegistry, language: string | undefined, pid: number | undefined, host: string | undefined, port: number | undefined, target: string | undefined): Promise<{ language: string; program: string }> {
  if (language) return { language, program: pid !== undefined ? `pid ${pid}` : `${host}:${port}` };
  if (port === undefined || host === undefined || target) {
    throw new DebugError('INVALID_ARGUMENT', `Attach ${target ? 'on a target' : 'by pid'} needs the language.`, 'Pass language: dotnet, python or node.');
  }
  const found = await registry.listenerAt(host, port);
  return { language: found.language, program: `${found.runtime} at ${host}:${port}` };
}

export function registerSessionTools(server: McpServer, manager: SessionManager): void {
  defineTool(
    server,
    'languages_list',
    {
      title: 'Languages',
      description: 'Which runtimes work here (or why not, and the fix), a line each; details: true adds what each engine can do.',
      input: { details: z.boolean().optional() },
      output: {
        languages: z.array(
          z.object({
            language: z.string(),
            displayName: z.string(),
            available: z.boolean(),
            version: z.string().optional(),
            detail: z.string().optional(),
            reason: z.string().optional(),
            install: z.string().optional(),
            capabilities: z.record(z.string(), z.unknown()).optional(),
          }),
        ),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ details }) => {
      const rows = await Promise.all(
        BUILT_IN_LANGUAGES.map(async (language) => {
          const [availability, factory] = await Promise.all([manager.registry.detect(language), manager.registry.load(language).catch(() => undefined)]);
          return { language, displayName: factory?.displayName ?? language, availability, capabilities: factory?.capabilities };
        }),
      );
      return {
        text: renderLanguages(rows, details),
        data: { languages: rows.map((r) => ({ language: r.language, displayName: r.displayName, ...r.availability, capabilities: r.capabilities as Record<string, unknown> | undefined })) },
      };
    },
  );

  defineTool(
    server,
    'session_launch',
    {
      title: 'Launch a program under the debugger',
      description:
        'Starts a program, breakpoints armed before any code runs; waitForStop: true also answers the first stop or the exit. Relative paths resolve against cwd.',
      input: { ...launchInput, waitForStop: z.boolean().optional() },
      output: startedShape,
    },
    async (args, ctx) => {
      const deadline = Date.now() + (args.timeoutMs ?? DEFAULT_LAUNCH_TIMEOUT_MS);
      const session = await launchSession(manager, args, ctx.signal);
      return startedAnswer(session, args.waitForStop, deadline, ctx);
    },
  );

  defineTool(
    server,
    'session_attach',
    {
      title: 'Attach to a running program',
      description:
        'Attaches by pid, or to a debug port (debugpy --listen, node --inspect). pathMappings: folders there.',
      input: {
        language: z.string().optional(),
        pid: z.number().int().positive().optional(),
        host: z.string().optional(),
        port: z.number().int().min(1).max(65535).optional(),
        pathMappings: pathMappingsShape.optional(),
        cwd: z.string().optional(),
        breakpoints: z.array(breakpointInput).optional(),
        exceptions: exceptionModeInput,
        waitForStop: z.boolean().optional(),
        timeoutMs: timeoutInput,
        options: z.record(z.string(), z.unknown()).optional(),
        target: targetInput,
      },
      output: startedShape,
    },
    async (args, ctx) => {
      if (args.target) manager.targets.definition(args.target);
      if (args.pid === undefined && args.port === undefined) {
        throw new DebugError('INVALID_ARGUMENT', 'Attach needs a pid or a port.', 'Pass pid (dotnet, python, node) or host + port (python, node).');
      }
      if (args.target && args.pathMappings) {
        throw new DebugError('INVALID_ARGUMENT', `Target "${args.target}" has its own path map; pathMappings is for a port attach without a target.`, 'Leave out pathMappings, or change the target\'s pathMappings where it is named.');
      }
      const deadline = Date.now() + (args.timeoutMs ?? DEFAULT_LAUNCH_TIMEOUT_MS);
      const cwd = resolveCwd(manager, args.cwd);
      const host = args.host ?? (args.port !== undefined ? '127.0.0.1' : undefined);
      const { language, program } = await attachedRuntime(manager.registry, args.language, args.pid, host, args.port, args.target);
      await requireKnownOptions(manager, language, args.options ?? {});
      const session = await manager.create(
        {
          language,
          program,
          args: [],
          cwd,
          env: {},
          stopOnEntry: false,
          exceptions: exceptionConfig(args.exceptions),
          options: args.options ?? {},
          attach: { pid: args.pid, host, port: args.port },
          ...(args.target ? { target: args.target } : {}),
          ...(args.pathMappings ? { pathMappings: mappingsFrom(cwd, args.pathMappings) } : {}),
        },
        breakpointRequests(manager, args, cwd),
      );
      await startOrExplain(manager, session, args.timeoutMs ?? DEFAULT_LAUNCH_TIMEOUT_MS, ctx.signal);
      return startedAnswer(session, args.waitForStop, deadline, ctx);
    },
  );

  defineTool(
    server,
    'session_state',
    {
      title: 'Session state',
      description: 'State of a session with its current stop, exit code or error.',
      input: { sessionId: sessionIdInput },
      output: {
        ...sessionScoped,
        language: z.string(),
        program: z.string(),
        pid: z.number().optional(),
        stop: stopSchema.optional(),
        exitCode: z.number().optional(),
        exitSignal: z.string().optional(),
        error: z.string().optional(),
        verdict: verdictSchema.optional(),
        run: z.number(),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId }) => {
      const session = manager.get(sessionId);
      const s = session.snapshot();
      let text: string;
      if (s.stop) text = renderWait(s.sessionId, { status: 'stopped', stop: s.stop, state: s.state, waitedMs: 0 });
      else if (s.state === 'exited' && s.verdict) text = `[${s.sessionId}] ${renderVerdict(s.verdict, s.exitCode, undefined)}`;
      else if (s.state === 'exited') text = `[${s.sessionId}] The program ${describeExit(s.exitCode, s.exitSignal)}.`;
      else if (s.state === 'failed') text = `[${s.sessionId}] failed: ${s.error}`;
      else text = `[${s.sessionId}] ${s.state}${s.pid ? ` (pid ${s.pid})` : ''}: ${s.program}`;
      return {
        text,
        data: { sessionId: s.sessionId, state: s.state, language: s.language, program: s.program, pid: s.pid, stop: s.stop ? stopView(s.stop) : undefined, exitCode: s.exitCode, exitSignal: s.exitSignal, error: s.error, verdict: s.verdict, run: s.run },
      };
    },
  );

  defineTool(
    server,
    'session_list',
    {
      title: 'List sessions',
      description:
        'Sessions, and those of an earlier server run session_restart brings back.',
      input: {},
      output: {
        sessions: z.array(
          z.object({ sessionId: z.string(), language: z.string(), program: z.string(), target: z.string().optional(), state: stateSchema, pid: z.number().optional(), exitCode: z.number().optional(), exitSignal: z.string().optional() }),
        ),
        recoverable: z.array(z.object({ sessionId: z.string(), language: z.string(), program: z.string(), breakpoints: z.number() })),
        unlisted: z.number().describe('Ended sessions not listed, still readable by id (session_state, session_output).'),
        released: z.number().describe('Older ended sessions let go.'),
      },
      annotations: { readOnlyHint: true },
    },
    async () => {
      const all = manager.list();
      const ended = all.filter((s) => !s.active).sort((a, b) => (b.endedAt ?? 0) - (a.endedAt ?? 0));
      const listed = [...all.filter((s) => s.active), ...ended.slice(0, LISTED_ENDED)];
      const unlisted = ended.length - Math.min(ended.length, LISTED_ENDED);
      const sessions = listed.map((s) => {
        const snap = s.snapshot();
        return { sessionId: s.id, language: snap.language, program: snap.program, target: s.config.target, state: snap.state, pid: snap.pid, exitCode: snap.exitCode, exitSignal: snap.exitSignal };
      });
      const recoverable = manager.recoverableSessions().slice(0, LISTED_RECOVERABLE);
      const recoverableRows = recoverable.map((r) => ({ sessionId: r.sessionId, language: r.config.language, program: r.config.program, breakpoints: r.breakpoints.length }));
      const released = manager.released().count;
      const how = (s: (typeof sessions)[number]) => (s.exitCode !== undefined || s.exitSignal ? ` (${s.exitSignal ?? `exit ${s.exitCode}`})` : '');
      const lines = sessions.map((s) => `${s.sessionId} ${s.state}${how(s)} ${s.language} ${s.program}${s.target ? ` on ${s.target}` : ''}`);
      const rec = recoverableRows.map((r) => `${r.sessionId} recoverable (${r.breakpoints} breakpoints) ${r.language} ${r.program} — session_restart brings it back`);
      const more = manager.recoverableSessions().length - recoverable.length;
      const notes = [
        ...(more > 0 ? [`… ${more} more recoverable sessions`] : []),
        ...(unlisted ? [`(${unlisted} more ended session${unlisted === 1 ? '' : 's'} not listed: session_state with the id)`] : []),
        ...(released ? [`(${released} older ended session${released === 1 ? ' was' : 's were'} let go)`] : []),
      ];
      const text = [...lines, ...rec, ...notes].join('\n') || 'No sessions. Start one with session_launch.';
      return { text, data: { sessions, recoverable: recoverableRows, unlisted, released } };
    },
  );

  defineTool(
    server,
    'session_stop',
    {
      title: 'Stop a session',
      description: 'Ends a session: terminates the program (or detaches) and answers its exit code and last output.',
      input: { sessionId: sessionIdInput, detach: z.boolean().optional() },
      output: {
        ...sessionScoped,
        exitCode: z.number().optional(),
        exitSignal: z.string().optional(),
        outputTail: z.string(),
        verdict: verdictSchema.optional(),
        wasRunning: z.boolean().describe('The program was still running: the session terminated it (exitCode comes from that) or, with detach, left it running.'),
      },
      annotations: { destructiveHint: true, idempotentHint: true },
    },
    async ({ sessionId, detach }) => {
      const session = manager.get(sessionId);
      const end = await session.end(detach ?? false);
      manager.persist();
      const { exitCode, exitSignal, outputTail, wasRunning, verdict } = end;
      return { text: renderSessionEnd(session.id, { ...end, detached: detach ?? false }), data: { sessionId: session.id, state: session.state, exitCode, exitSignal, outputTail, verdict, wasRunning } };
    },
  );

  defineTool(
    server,
    'session_restart',
    {
      title: 'Restart a session',
      description: 'Runs the program again with the same breakpoints (also a recoverable session).',
      input: { sessionId: sessionIdInput, waitForStop: z.boolean().optional(), timeoutMs: timeoutInput },
      output: startedShape,
    },
    async ({ sessionId, waitForStop, timeoutMs }, ctx) => {
      const deadline = Date.now() + (timeoutMs ?? DEFAULT_LAUNCH_TIMEOUT_MS);
      const stored = sessionId ? manager.storedSession(sessionId) : undefined;
      let session: Session;
      if (stored) {
        manager.paths.requireAllowed(stored.config.program, 'program');
        session = await manager.create(stored.config, [], stored.sessionId, stored.breakpoints.map((b) => ({ ...b, hits: 0 })));
        await startOrExplain(manager, session, timeoutMs ?? DEFAULT_LAUNCH_TIMEOUT_MS, ctx.signal);
      } else {
        session = manager.get(sessionId);
        await startOrExplain(manager, session, timeoutMs ?? DEFAULT_LAUNCH_TIMEOUT_MS, ctx.signal, 'restart');
      }
      return startedAnswer(session, waitForStop, deadline, ctx);
    },
  );

  defineTool(
    server,
    'session_output',
    {
      title: 'Program output',
      description: 'What the program printed since cursor (pass back the cursor answered).',
      input: {
        sessionId: sessionIdInput,
        cursor: z.number().int().min(0).optional(),
        maxChars: z.number().int().min(100).max(200_000).optional(),
      },
      output: { ...sessionScoped, output: z.string(), cursor: z.number(), dropped: z.number(), truncated: z.boolean() },
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId, cursor, maxChars }) => {
      const session = manager.get(sessionId);
      const cap = maxChars ?? 8000;
      const slice = session.output.since(cursor ?? 0);
      let text = '';
      let lastSeq = cursor ?? 0;
      let truncated = false;
      for (const e of slice.entries) {
        if (text.length + e.value.text.length > cap) {
          truncated = true;
          // A chunk bigger than the whole cap is cut rather than never shown (the cursor moves past it).
          if (!text) {
            text = `${e.value.text.slice(0, cap)}… (${e.value.text.length - cap} more chars of this chunk left out)`;
            lastSeq = e.seq;
          }
          break;
        }
        text += e.value.text;
        lastSeq = e.seq;
      }
      if (!slice.entries.length) lastSeq = slice.cursor;
      const note = truncated ? `\n… more output: call again with cursor ${lastSeq}` : '';
      const lost = slice.dropped ? `(${slice.dropped} older chunks were dropped)\n` : '';
      return {
        text: `[${session.id}] ${session.state}, cursor ${lastSeq}\n${lost}${text || '(no new output)'}${note}`,
        data: { sessionId: session.id, state: session.state, output: text, cursor: lastSeq, dropped: slice.dropped, truncated },
      };
    },
  );

  defineTool(
    server,
    'session_events',
    {
      title: 'Session events',
      description: 'Event log since cursor; waitMs waits for a new event.',
      input: {
        sessionId: sessionIdInput,
        cursor: z.number().int().min(0).optional(),
        waitMs: z.number().int().min(0).max(600_000).optional(),
        limit: z.number().int().min(1).max(1000).optional(),
        types: z.array(z.string()).optional().describe('e.g. stopped, exited, module'),
      },
      output: {
        ...sessionScoped,
        events: z.array(z.object({ seq: z.number(), at: z.number(), type: z.string(), summary: z.string(), data: z.record(z.string(), z.unknown()).optional() })),
        cursor: z.number(),
        dropped: z.number(),
      },
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId, cursor, waitMs, limit, types }, ctx) => {
      const session = manager.get(sessionId);
      const from = cursor ?? 0;
      if (waitMs) await session.events.waitBeyond(from, waitMs, ctx.signal);
      const slice = session.events.since(from, limit ?? 200);
      // Cut at the size cap where an event ends; the cursor then points there.
      let room = EVENTS_ANSWER_CHARS;
      const fitting = slice.entries.filter((e) => (room -= JSON.stringify(e).length) >= 0 || e === slice.entries[0]);
      if (fitting.length < slice.entries.length) slice.cursor = fitting[fitting.length - 1].seq;
      const more = fitting.length < slice.entries.length ? `\n… more events: call again with cursor ${slice.cursor}` : '';
      const entries = types?.length ? fitting.filter((e) => types.includes(e.value.type)) : fitting;
      return {
        text: `[${session.id}] ${session.state}, cursor ${slice.cursor}\n${renderEvents(entries, slice.dropped)}${more}`,
        data: {
          sessionId: session.id,
          state: session.state,
          events: entries.map((e) => ({ seq: e.seq, at: e.at, type: e.value.type, summary: e.value.summary, data: e.value.data })),
          cursor: slice.cursor,
          dropped: slice.dropped,
        },
      };
    },
  );

  defineTool(
    server,
    'session_diagnostics',
    {
      title: 'Session diagnostics',
      description: 'When something goes wrong: adapter stderr, last events, pending requests, timings.',
      input: { sessionId: sessionIdInput },
      output: { ...sessionScoped, diagnostics: z.record(z.string(), z.unknown()) },
      annotations: { readOnlyHint: true },
    },
    async ({ sessionId }) => {
      const session = manager.get(sessionId);
      const d = session.diagnostics();
      const engine = d.engine;
      const lines = [
        `[${session.id}] ${d.state}${d.error ? ` — ${d.error}` : ''}; run ${d.run}; pid ${d.pid ?? '?'}`,
        `timings: ${JSON.stringify(d.timings)}`,
        `engine: ${JSON.stringify(engine?.details ?? {})}`,
        `pending requests: ${engine?.pendingRequests.map((p) => `${p.command} (${p.ageMs} ms)`).join(', ') || 'none'}`,
        `adapter stderr (last lines):\n${engine?.adapterStderr.slice(-20).join('\n') || '(none)'}`,
        `recent events:\n${d.recentEvents.map((e) => `  ${e.summary}`).join('\n') || '  (none)'}`,
      ];
      return { text: lines.join('\n'), data: { sessionId: session.id, state: session.state, diagnostics: JSON.parse(JSON.stringify(d)) as Record<string, unknown> } };
    },
  );
}
