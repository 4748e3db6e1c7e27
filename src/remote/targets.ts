/**
 * The targets a server knows, named once (config files and `DEBUGBRIDGE_TARGETS`, each a JSON
 * object of name → {command, pathMappings}: targetConfig.ts) and used by name: each has at most one open connection, shared by its
 * sessions, opened on first use and closed a while after its last engine is gone.
 */
import type { EngineFactory } from '../core/engine.js';
import { DebugError } from '../core/errors.js';
import { PathMap } from '../core/pathMap.js';
import type { RemoteTarget } from './remoteEngine.js';
import { PROJECT_CONFIG, readTargetSources, userConfigPath, type TargetDefinition, type TargetSource } from './targetConfig.js';
import type { TargetConnection } from './targetConnection.js';

export type { TargetDefinition } from './targetConfig.js';

/** A connection with no engine is closed after this long (the next session reuses it until then). */
const IDLE_CLOSE_MS = 60_000;

export class Targets {
  private readonly connections = new Map<string, Promise<TargetConnection>>();

  /** `problems`: why a source of targets could not be read; said at first use, never a crash at start. */
  constructor(
    private readonly definitions: Record<string, TargetDefinition>,
    private readonly problems: string[] = [],
  ) {}

  /** The config files' targets and DEBUGBRIDGE_TARGETS', merged by name (targetConfig.ts). */
  static fromEnv(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): Targets {
    return Targets.fromSources(readTargetSources(env, cwd));
  }

  static fromSources(sources: TargetSource[]): Targets {
    const definitions = Object.assign({}, ...sources.map((s) => s.definitions)) as Record<string, TargetDefinition>;
    return new Targets(definitions, sources.flatMap((s) => (s.problem ? [s.problem] : [])));
  }

  names(): string[] {
    return Object.keys(this.definitions);
  }

  definition(name: string): TargetDefinition {
    const found = Object.hasOwn(this.definitions, name) ? this.definitions[name] : undefined;
    if (found) return found;
    if (this.problems.length) throw new DebugError('INVALID_ARGUMENT', `No target "${name}": ${this.problems.join('; ')}.`, 'Fix that, then start the server again.');
    const names = this.names();
    throw new DebugError(
      'INVALID_ARGUMENT',
      `No target "${name}".${names.length ? ` Targets: ${names.join(', ')}.` : ' No targets are configured.'}`,
      names.length ? 'Pass one of those names as target.' : `Name targets under "targets" in ${PROJECT_CONFIG} (this folder) or ${userConfigPath()}, or in DEBUGBRIDGE_TARGETS, e.g. {"web": {"command": ["docker","exec","-i","web","debugbridge","agent"], "pathMappings": [{"local": "~/code/web", "remote": "/src"}]}}.`,
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
          // Idle means no engine and no request for a while: a test run planned on it (test/prepare) has no engine yet.
          const check = () => {
            if (connection.engineCount > 0 || this.connections.get(name) !== pending) return;
            const idleFor = Date.now() - connection.lastUsed;
            if (idleFor < IDLE_CLOSE_MS) return void setTimeout(check, IDLE_CLOSE_MS - idleFor).unref();
            this.connections.delete(name);
            connection.close();
          };
          setTimeout(check, IDLE_CLOSE_MS).unref();
        };
      },
      () => {
        if (this.connections.get(name) === pending) this.connections.delete(name);
      },
    );
    return pending;
  }
}
