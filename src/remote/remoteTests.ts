/**
 * debug_test on a target: the run is planned where the tests are (which framework, its runner,
 * the session's configuration), by the agent, from the local paths mapped there; the session's
 * engine is the far side's test engine, so judging a failure reads the far side's files, and what
 * comes back (stops, the failure, the verdict) is in local paths.
 */
import type { EngineRegistry } from '../core/engineRegistry.js';
import type { EngineFactory } from '../core/engine.js';
import type { SessionConfig } from '../core/sessionConfig.js';
import type { DebugTestInput } from '../testing/testRun.js';
import { remoteEngineFactory } from './remoteEngine.js';
import { prepareTestRun } from './remoteProtocol.js';
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
  const connection = await target.connect();
  let answer;
  try {
    answer = await connection.request(prepareTestRun, far, PREPARE_TIMEOUT_MS);
  } finally {
    // No engine holds the connection yet: it closes after a while unless the session's engine takes it.
    if (connection.engineCount === 0) connection.onIdle?.();
  }
  const config: SessionConfig = { ...answer.config, program: paths.toLocal(answer.config.program), cwd: paths.toLocal(answer.config.cwd), target: name };
  // The language's factory here lends only its name and static description; its engine runs there.
  const factory = remoteEngineFactory(await registry.load(config.language), target, far);
  return { framework: answer.framework, commandLine: answer.commandLine, config, factory };
}
