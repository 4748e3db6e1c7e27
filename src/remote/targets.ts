/**
 * The targets a server knows, named once (`DEBUGBRIDGE_TARGETS`, a JSON object of name →
 * {command, pathMappings}) and used by name: each has at most one open connection, shared by its
 * sessions, opened on first use and closed a while after its last engine is gone.
 */
import { z } from 'zod';
import type { EngineFactory } from '../core/engine.js';
import { DebugError } from '../core/errors.js';
import { PathMap } from './pathMap.js';
import type { RemoteTarget } from './remoteEngine.js';
import type { TargetConnection } from './targetConnection.js';

const targetShape = z.strictObject({
  command: z.array(z.string().min(1)).min(1),
  pathMappings: z.array(z.strictObject({ local: z.string().min(1), remote: z.string().min(1) })).optional(),
});
const targetsShape = z.record(z.string().regex(/^[A-Za-z0-9][\w.-]*$/), targetShape);

export type TargetDefinition = z.infer<typeof targetShape>;

/** A connection with no engine is closed after this long (the next session reuses it until then). */
const IDLE_CLOSE_MS = 60_000;

export class Targets {
  private readonly connections = new Map<string, Promise<TargetConnection>>();

  /** `problem`: why the configured targets could not be read; said at first use, never a crash at start. */
  constructor(
    private readonly definitions: Record<string, TargetDefinition>,
    private readonly problem?: string,
  ) {}

  static fromEnv(env: NodeJS.ProcessEnv = process.env): Targets {
    const text = env.DEBUGBRIDGE_TARGETS;
    if (!text?.trim()) return new Targets({});
    try {
      const parsed = targetsShape.safeParse(JSON.parse(text));
      if (parsed.success) return new Targets(parsed.data);
      const issue = parsed.error.issues[0];
      return new Targets({}, `DEBUGBRIDGE_TARGETS ${issue.path.length ? `at ${issue.path.join('.')}` : ''}: ${issue.message}`);
    } catch (e) {
      return new Targets({}, `DEBUGBRIDGE_TARGETS is not JSON: ${(e as Error).message}`);
    }
  }

  names(): string[] {
    return Object.keys(this.definitions);
  }

  definition(name: string): TargetDefinition {
    const found = Object.hasOwn(this.definitions, name) ? this.definitions[name] : undefined;
    if (found) return found;
    if (this.problem) throw new DebugError('INVALID_ARGUMENT', `No target "${name}": ${this.problem}.`, 'Fix DEBUGBRIDGE_TARGETS where the server is started.');
    const names = this.names();
    throw new DebugError(
      'INVALID_ARGUMENT',
      `No target "${name}".${names.length ? ` Targets: ${names.join(', ')}.` : ' No targets are configured.'}`,
      names.length ? 'Pass one of those names as target.' : 'Name targets in DEBUGBRIDGE_TARGETS, e.g. {"web": {"command": ["docker","exec","-i","web","debugbridge","agent"], "pathMappings": [{"local": "~/code/web", "remote": "/src"}]}}.',
    );
  }

  /** The language's engine on the named target (the remote code, and its JSON-RPC, load with the first such session). */
  async factory(name: string, local: EngineFactory): Promise<EngineFactory> {
    const target = this.target(name);
    const { remoteEngineFactory } = await import('./remoteEngine.js');
    return remoteEngineFactory(local, target);
  }

  target(name: string): RemoteTarget {
    const definition = this.definition(name);
    return { name, paths: new PathMap(definition.pathMappings), connect: () => this.connect(name, definition) };
  }

  /** Closes every connection (the server is going away); each agent ends its engines' processes. */
  async disposeAll(): Promise<void> {
    const open = [...this.connections.values()];
    this.connections.clear();
    for (const pending of open) (await pending.catch(() => undefined))?.close();
  }

  private connect(name: string, definition: TargetDefinition): Promise<TargetConnection> {
    const existing = this.connections.get(name);
    if (existing) {
      return existing.then(
        (c) => (c.closed ? this.reconnect(name, definition) : c),
        () => this.reconnect(name, definition),
      );
    }
    return this.reconnect(name, definition);
  }

  private reconnect(name: string, definition: TargetDefinition): Promise<TargetConnection> {
    const pending = import('./targetConnection.js').then(({ TargetConnection }) => TargetConnection.open({ name, command: definition.command }));
    this.connections.set(name, pending);
    pending.then(
      (connection) => {
        connection.onIdle = () => {
          const timer = setTimeout(() => {
            if (connection.engineCount === 0 && this.connections.get(name) === pending) {
              this.connections.delete(name);
              connection.close();
            }
          }, IDLE_CLOSE_MS);
          timer.unref();
        };
      },
      () => {
        if (this.connections.get(name) === pending) this.connections.delete(name);
      },
    );
    return pending;
  }
}
