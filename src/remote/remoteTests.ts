/**
 * debug_test on a target: the run is planned where the tests are (which framework, its runner,
 * the session's configuration), by the agent, from the local paths mapped there; the session's
 * engine is the far side's test engine, so judging a failure reads the far side's files, and what
 * comes back (stops, the failure, the verdict) is in local paths.
 */
import type { EngineRegistry } from '../core/engineRegistry.js';
import type { EngineFactory } from '../core/engine.js';
import type { DebugError } from '../core/errors.js';
import type { SessionConfig } from '../core/sessionConfig.js';
import { noSuchTest, type DebugTestInput, type ListTestsInput } from '../testing/testRun.js';
import type { TestListing } from '../testing/types.js';
import { remoteEngineFactory } from './remoteEngine.js';
import { listTestsThere, prepareTestRun } from './remoteProtocol.js';
import type { TargetConnection } from './targetConnection.js';
import type { Targets } from './targets.js';

/** The far side may build a project (.NET) or ask its runner before it answers. */
const PREPARE_TIMEOUT_MS = 120_000;

export interface RemoteTestRun {
  framework: string;
  commandLine: string;
  /** Local paths, and the target. */
  config: SessionConfig;
  /** The far side's test engine: give it to SessionManager.create as is. */
  factory: EngineFactory;
}

export async function prepareRemoteTest(targets: Targets, registry: EngineRegistry, name: string, input: DebugTestInput): Promise<RemoteTestRun> {
  const target = targets.target(name);
  const { paths } = target;
  const far: DebugTestInput = { ...input, path: paths.toRemote(input.path), cwd: paths.toRemote(input.cwd) };
  const answer = await askTarget(targets, name, (connection) => connection.request(prepareTestRun, far, PREPARE_TIMEOUT_MS));
  const config: SessionConfig = { ...answer.config, program: paths.toLocal(answer.config.program), cwd: paths.toLocal(answer.config.cwd), target: name };
  // The language's factory here lends only its name and static description; its engine runs there.
  const factory = remoteEngineFactory(await registry.load(config.language), target, far);
  return { framework: answer.framework, commandLine: answer.commandLine, config, factory };
}

/** test_list on a target: listed there, from the local paths mapped there; the tests' files come back local. */
export async function listRemoteTests(targets: Targets, name: string, input: ListTestsInput, signal: AbortSignal): Promise<TestListing> {
  const { paths } = targets.target(name);
  const far: ListTestsInput = { ...input, path: paths.toRemote(input.path), cwd: paths.toRemote(input.cwd) };
  const listing = await askTarget(targets, name, (connection) => connection.request(listTestsThere, far, PREPARE_TIMEOUT_MS, signal));
  return { ...listing, tests: listing.tests.map((t) => ({ ...t, file: paths.toLocal(t.file) })) };
}

/** TEST_NOT_FOUND for a named test a target's run did not find, with the closest names listed there. */
export async function remoteTestNotFound(targets: Targets, name: string, framework: string, input: DebugTestInput, signal: AbortSignal): Promise<DebugError> {
  const listing = await listRemoteTests(targets, name, { path: input.path, framework: input.framework, cwd: input.cwd }, signal).catch(() => undefined);
  return noSuchTest(framework, input.test ?? '', input.path, listing?.tests.map((t) => t.id) ?? []);
}

async function askTarget<T>(targets: Targets, name: string, ask: (connection: TargetConnection) => Promise<T>): Promise<T> {
  const connection = await targets.target(name).connect();
  try {
    return await ask(connection);
  } finally {
    // No engine holds the connection yet: it closes after a while unless a session's engine takes it.
    if (connection.engineCount === 0) connection.onIdle?.();
  }
}
