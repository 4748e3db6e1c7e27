/**
 * `debugbridge agent`: the far side of a target. Started by the target's exec command (docker exec
 * -i, kubectl exec -i, ssh), it runs the real engines here and speaks to the server over its own
 * stdin/stdout. Nothing listens on a port. When the stream ends (the server went away, the pipe was
 * cut) every engine is disposed, which ends every process it started, and the agent exits.
 */
import { CancellationToken, ResponseError, type MessageConnection } from 'vscode-jsonrpc';
import { createMessageConnection, StreamMessageReader, StreamMessageWriter } from 'vscode-jsonrpc/node';
import type { Engine } from '../core/engine.js';
import { EngineRegistry } from '../core/engineRegistry.js';
import { isDebugError } from '../core/errors.js';
import { readSourceLines } from '../core/sourceReader.js';
import { listTests, prepareTest } from '../testing/testRun.js';
import { VERSION } from '../version.js';
import {
  CALLABLE,
  createEngine,
  detectLanguage,
  disposeEngine,
  engineCall,
  engineDiagnostics,
  engineEvent,
  engineLog,
  hello,
  listTestsThere,
  OPTIONAL_METHODS,
  prepareTestRun,
  SLICE_END,
  SLICE_EXPRESSION,
  SLICE_START,
  sourceLines,
  type ErrorData,
} from './remoteProtocol.js';

/** Engine calls that take an AbortSignal as their last argument. */
const CANCELLABLE = new Set(['launch', 'attach']);

export async function runAgent(): Promise<number | undefined> {
  // stdout carries protocol frames only: anything an engine or library prints goes to stderr.
  console.log = console.info = console.debug = console.warn;
  const connection = createMessageConnection(new StreamMessageReader(process.stdin), new StreamMessageWriter(process.stdout));
  const agent = new Agent(connection);
  agent.serve();
  process.on('SIGTERM', () => void agent.shutdown());
  process.on('SIGHUP', () => void agent.shutdown());
  return undefined;
}

class Agent {
  private readonly registry = new EngineRegistry();
  private readonly engines = new Map<number, Engine>();
  private ending?: Promise<void>;

  constructor(private readonly connection: MessageConnection) {}

  serve(): void {
    const c = this.connection;
    c.onRequest(hello, ({ version }) => {
      if (version !== VERSION) throw new ResponseError(1, `The server is debugbridge ${version} and this agent is ${VERSION}.`, versionData(version));
      return { version: VERSION, pid: process.pid, platform: `${process.platform}-${process.arch}`, node: process.version };
    });
    c.onRequest(sourceLines, ({ path }) => readSourceLines(path) ?? null);
    c.onRequest(detectLanguage, ({ language }) => guarded(() => this.registry.detect(language)));
    c.onRequest(prepareTestRun, (input) =>
      guarded(async () => {
        const { plan, config } = await prepareTest(this.registry, input);
        return { framework: plan.framework, commandLine: plan.commandLine, config };
      }),
    );
    c.onRequest(listTestsThere, (input, token) => guarded(() => listTests(input, abortSignalOf(token))));
    c.onRequest(createEngine, ({ engine: id, language, test }) =>
      guarded(async () => {
        const factory = test ? (await prepareTest(this.registry, test)).factory : await this.registry.load(language);
        const engine = factory.create({
          emit: (event) => void c.sendNotification(engineEvent, { engine: id, event }).catch(() => undefined),
          log: (level, message) => void c.sendNotification(engineLog, { engine: id, level, message }).catch(() => undefined),
        });
        this.engines.set(id, engine);
        return {
          capabilities: engine.capabilities,
          optional: OPTIONAL_METHODS.filter((m) => typeof engine[m] === 'function'),
          sliceTemplate: engine.textSlice(SLICE_EXPRESSION, SLICE_START, SLICE_END),
        };
      }),
    );
    c.onRequest(engineCall, ({ engine: id, method, args }, token) =>
      guarded(async () => {
        const engine = this.engine(id);
        if (!(CALLABLE as readonly string[]).includes(method) || typeof (engine as unknown as Record<string, unknown>)[method] !== 'function') {
          throw new ResponseError(2, `The ${method} call is not an engine call of this agent.`, { debugCode: 'UNSUPPORTED' } satisfies ErrorData);
        }
        const call = (engine as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method].bind(engine);
        const result = CANCELLABLE.has(method) ? await call(...args, abortSignalOf(token)) : await call(...args);
        return { result, pid: engine.pid };
      }),
    );
    c.onRequest(engineDiagnostics, ({ engine: id }) => guarded(async () => this.engine(id).diagnostics()));
    c.onRequest(disposeEngine, ({ engine: id }) =>
      guarded(async () => {
        const engine = this.engines.get(id);
        this.engines.delete(id);
        await engine?.dispose();
      }),
    );
    c.onClose(() => void this.shutdown());
    c.onError(([error]) => process.stderr.write(`debugbridge agent: ${error.message}\n`));
    c.listen();
  }

  private engine(id: number): Engine {
    const engine = this.engines.get(id);
    if (!engine) throw new ResponseError(3, `No engine ${id} on this agent.`, { debugCode: 'INVALID_STATE', hint: 'Start the session again.' } satisfies ErrorData);
    return engine;
  }

  /** Every engine disposed (each ends the processes it started), then the agent exits. */
  shutdown(): Promise<void> {
    this.ending ??= (async () => {
      const engines = [...this.engines.values()];
      this.engines.clear();
      await Promise.allSettled(engines.map((e) => e.dispose()));
      this.connection.dispose();
      process.exit(0);
    })();
    return this.ending;
  }
}

function versionData(serverVersion: string): ErrorData {
  return { debugCode: 'TARGET_VERSION_MISMATCH', details: { serverVersion, agentVersion: VERSION } };
}

/** A DebugError crosses as JSON-RPC error data, so the server rebuilds it with its code and next step. */
async function guarded<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof ResponseError) throw e;
    if (isDebugError(e)) throw new ResponseError(4, e.message, { debugCode: e.code, hint: e.hint, details: e.details } satisfies ErrorData);
    throw new ResponseError(5, e instanceof Error ? e.message : String(e), { debugCode: 'INTERNAL' } satisfies ErrorData);
  }
}

function abortSignalOf(token: CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  else token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
