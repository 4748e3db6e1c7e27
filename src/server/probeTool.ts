/**
 * debug_probe: one call that launches, collects what each breakpoint hit shows (location, locals,
 * expressions), stops the program and answers all of it. For quick questions about a run.
 */
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { z } from 'zod';
import { DebugError, toDebugError } from '../core/errors.js';
import { describeExit } from '../core/eventSummary.js';
import type { SessionManager } from '../core/sessionManager.js';
import { DEFAULT_WAIT_MS } from './executionTools.js';
import { launchInput, launchSession } from './launchArgs.js';
import { DEFAULT_MAX_CHARS, renderTrace } from './renderAnswers.js';
import { renderProbe, type ProbeHit } from './renderProbe.js';
import { maxCharsInput, stopSchema } from './schemas.js';
import { stopView } from './structured.js';
import { defineTool } from './toolKit.js';

const DEFAULT_MAX_HITS = 10;
/** A probe takes what a launch takes but the options a quick look does without (stop on entry, function breakpoints, executables: `options` still passes pythonPath / runtimeExecutable). */
const { stopOnEntry: _entry, functionBreakpoints: _functions, exceptionTypes: _types, pythonPath: _python, runtimeExecutable: _runtime, ...probeLaunchInput } = launchInput;
/** Characters of hits (text and structured) one probe answer collects at most. */
const PROBE_ANSWER_CHARS = 160_000;

/** A hit as the structured answer keeps it: the stop without its source lines, its locals when asked for. */
function probeView(hit: ProbeHit, locals: boolean) {
  const { source: _source, locals: stopLocals, localsOmitted, ...stop } = stopView(hit.stop);
  return { stop: locals ? { ...stop, locals: stopLocals, localsOmitted } : stop, values: hit.values };
}

export function registerProbeTool(server: McpServer, manager: SessionManager): void {
  defineTool(
    server,
    'debug_probe',
    {
      title: 'Probe a run',
      description:
        `Launches (as session_launch), evaluates expressions at each hit until maxHits (default ${DEFAULT_MAX_HITS}) or the exit; answers a row per hit (locals: true adds the locals).`,
      input: {
        ...probeLaunchInput,
        breakpoints: launchInput.breakpoints.unwrap().min(1),
        expressions: z.array(z.string()).optional(),
        locals: z.boolean().optional(),
        maxHits: z.number().int().min(1).max(200).optional(),
        maxChars: maxCharsInput,
      },
      output: {
        sessionId: z.string(),
        state: z.string(),
        status: z.enum(['exited', 'maxHits', 'timeout', 'sizeCap']),
        hits: z.array(
          z.object({
            stop: stopSchema,
            values: z.array(z.object({ expression: z.string(), value: z.string().optional(), type: z.string().optional(), error: z.string().optional() })),
          }),
        ),
        exitCode: z.number().optional(),
        exitSignal: z.string().optional(),
        outputTail: z.string(),
      },
    },
    async (args, ctx) => {
      const maxHits = args.maxHits ?? DEFAULT_MAX_HITS;
      const timeoutMs = args.timeoutMs ?? DEFAULT_WAIT_MS;
      const deadline = Date.now() + timeoutMs;
      const session = await launchSession(manager, args, ctx.signal);
      const withLocals = args.locals ?? !args.expressions?.length;
      const hits: ProbeHit[] = [];
      let status: 'exited' | 'maxHits' | 'timeout' | 'sizeCap' = 'timeout';
      let size = 0;
      try {
        while (hits.length < maxHits) {
          const remaining = deadline - Date.now();
          if (remaining <= 0) break;
          const r = await session.waitForStop({ timeoutMs: remaining, signal: ctx.signal, onProgress: ctx.progress });
          if (r.status === 'exited') {
            status = 'exited';
            break;
          }
          if (r.status !== 'stopped' || !r.stop) break;
          const values = [];
          for (const expression of args.expressions ?? []) {
            try {
              const frameId = await session.frameId(0);
              const v = await session.inspector().evaluate(frameId, expression);
              values.push({ expression, value: v.value, type: v.type });
            } catch (e) {
              values.push({ expression, error: toDebugError(e).message });
            }
          }
          hits.push({ stop: r.stop, values });
          ctx.progress(`hit ${hits.length}`);
          if (hits.length >= maxHits) {
            status = 'maxHits';
            break;
          }
          size += JSON.stringify(probeView(hits[hits.length - 1], withLocals)).length;
          if (size > PROBE_ANSWER_CHARS) {
            status = 'sizeCap';
            break;
          }
          await session.continue({ wait: false, timeoutMs: 0 });
        }
      } finally {
        await session.end(false);
        manager.persist();
      }
      if (!hits.length && status !== 'exited' && ctx.signal.aborted) {
        throw new DebugError('CANCELLED', 'The probe was cancelled.', 'Run it again when ready.');
      }
      const end = {
        exited: `The program ${describeExit(session.exitCode, session.exitSignal)}.`,
        maxHits: `Stopped after ${maxHits} hits.`,
        sizeCap: `Stopped after ${hits.length} hits: the answer reached its size cap. Pass fewer expressions, or a condition on the breakpoint to reach later hits.`,
        timeout: `No more stops within ${timeoutMs} ms.`,
      }[status];
      const tail = session.output.tail();
      const maxChars = args.maxChars ?? DEFAULT_MAX_CHARS;
      const traces = session.breakpoints.all(false).flatMap((b) => {
        const trace = session.traces.get(b.id);
        return trace ? [renderTrace(b, trace, 0, Math.floor(maxChars / 2)).text] : [];
      });
      const text = renderProbe({ sessionId: session.id, hits, expressions: args.expressions ?? [], locals: withLocals, end, outputTail: tail, traces, maxChars });
      const data = hits.map((h) => probeView(h, withLocals));
      return { text, data: { sessionId: session.id, state: session.state, status, hits: data, exitCode: session.exitCode, exitSignal: session.exitSignal, outputTail: tail } };
    },
  );
}
