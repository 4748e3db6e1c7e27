/**
 * `debugbridge doctor --target NAME`: the target's exec command started as a session would start
 * it, then what the far side has (the agent's version and platform, each language's runtime and
 * adapter there) and the exact fix for what is missing, as `debugbridge doctor` says it here.
 */
import { toDebugError } from '../core/errors.js';
import { checkLanguages, writeRows } from '../doctor.js';
import { VERSION } from '../version.js';
import { detectLanguage } from './remoteProtocol.js';
import { TargetConnection } from './targetConnection.js';
import { Targets } from './targets.js';

const DETECT_TIMEOUT_MS = 60_000;

export async function runTargetDoctor(name: string, out: NodeJS.WritableStream): Promise<number> {
  let command: string[];
  try {
    command = Targets.fromEnv().definition(name).command;
  } catch (e) {
    const error = toDebugError(e);
    out.write(`debugbridge doctor: ${error.message}\n  fix: ${error.hint}\n`);
    return 2;
  }
  out.write(`debugbridge doctor — target "${name}": ${command.join(' ')}\n\n`);
  let connection: TargetConnection;
  try {
    connection = await TargetConnection.open({ name, command });
  } catch (e) {
    const error = toDebugError(e);
    out.write(`  MISSING  agent   ${error.message}\n`);
    out.write(`           fix: ${error.code === 'TARGET_VERSION_MISMATCH' ? error.hint : agentFix(command)}\n`);
    return 1;
  }
  try {
    const agent = connection.agent!;
    out.write(`  ok       agent   debugbridge ${agent.version}  (Node ${agent.node} on ${agent.platform})\n`);
    const rows = await checkLanguages((language) => connection.request(detectLanguage, { language }, DETECT_TIMEOUT_MS));
    return writeRows(rows, out, `on ${name}`);
  } finally {
    connection.close();
  }
}

/** The exec command ran, but no agent of this version answered at its end. */
function agentFix(command: string[]): string {
  return (
    `install debugbridge ${VERSION} where \`${command.join(' ')}\` runs (npm install -g debugbridge@${VERSION}, in the image or on the host), ` +
    `and check that the command reaches it: it must start \`debugbridge agent\` with its stdin and stdout connected (docker exec -i, kubectl exec -i, ssh without -t).`
  );
}

