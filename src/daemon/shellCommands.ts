/**
 * `debugbridge call …` and `debugbridge daemon start|stop|status|run`: the tool set from a shell,
 * against the daemon that holds the sessions between commands. A call prints the same text an MCP
 * client reads (or, with --json, the structuredContent). Exit codes: 0 answered, 1 the tool answered
 * an error (isError), 2 bad command line, 3 no daemon could be reached.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { isDebugError, toDebugError } from '../core/errors.js';
import { VERSION } from '../version.js';
import { buildArguments, describeTool, splitCallArgv, type InputSchema } from './callArgs.js';
import { DaemonClient } from './daemonClient.js';
import { daemonPaths } from './daemonPaths.js';
import type { DaemonStatus } from './daemonProtocol.js';

export const EXIT = { ok: 0, toolError: 1, usage: 2, noDaemon: 3 } as const;

interface Io {
  out: NodeJS.WritableStream;
  err: NodeJS.WritableStream;
}

const stdio: Io = { out: process.stdout, err: process.stderr };

export const DAEMON_USAGE = `Usage: debugbridge daemon start|stop|status|run
  start    start the daemon if none runs (debugbridge call also starts it on first use)
  stop     end every session it holds, then the daemon
  status   whether it runs: pid, version, sessions, socket (exit code 1 when it does not run)
  run      run it in the foreground (what start runs in the background)
`;

export async function runCall(argv: string[], io: Io = stdio): Promise<number> {
  const command = splitCallArgv(argv);
  let client: DaemonClient | undefined;
  try {
    client = await DaemonClient.connect(daemonPaths());
  } catch (e) {
    io.err.write(`${toDebugError(e).toText()}\n`);
    return EXIT.noDaemon;
  }
  try {
    warnOnOtherVersion(client, io);
    const tools = await client.tools();
    if (!command.tool) {
      const width = Math.max(...tools.map((t) => t.name.length));
      io.out.write(`Usage: debugbridge call <tool> [--name value …] ['{json}'] [--json]   (debugbridge call <tool> --help)\n\n${tools.map((t) => `  ${t.name.padEnd(width)}  ${t.title ?? t.annotations?.title ?? ''}`).join('\n')}\n`);
      return EXIT.ok;
    }
    const tool = tools.find((t) => t.name === command.tool);
    if (!tool) {
      io.err.write(`UNKNOWN_TOOL: there is no tool "${command.tool}".\nNext: debugbridge call (without a tool) lists them.\n`);
      return EXIT.usage;
    }
    // The whole schema, not tools/list's lean one: a launch's breakpoints are only referred to there.
    const whole = (await client.inputSchema(tool.name).catch(() => undefined)) as InputSchema | undefined;
    const schema = whole?.properties ? whole : (tool.inputSchema as InputSchema);
    if (command.help) {
      io.out.write(describeTool({ ...tool, inputSchema: schema }));
      return EXIT.ok;
    }
    const args = buildArguments(tool.name, command.words, schema);
    // Relative paths mean the shell's folder, not the daemon's.
    if (schema.properties?.cwd && args.cwd === undefined) args.cwd = process.cwd();
    const result = await client.call(tool.name, args);
    if (result.isError) {
      io.err.write(`${textOf(result)}\n`);
      return EXIT.toolError;
    }
    io.out.write(command.json ? `${JSON.stringify(result.structuredContent ?? {}, null, 2)}\n` : `${textOf(result)}\n`);
    return EXIT.ok;
  } catch (e) {
    io.err.write(`${toDebugError(e).toText()}\n`);
    return isDebugError(e) && e.code === 'INVALID_ARGUMENT' ? EXIT.usage : EXIT.toolError;
  } finally {
    await client.close();
  }
}

export async function runDaemonCommand(argv: string[], io: Io = stdio): Promise<number> {
  const [action] = argv;
  const paths = daemonPaths();
  try {
    switch (action) {
      case 'run': {
        const { AlreadyRunning, runDaemon } = await import('./daemon.js');
        return await runDaemon(paths).catch((e: unknown) => {
          if (!(e instanceof AlreadyRunning)) throw e;
          io.err.write(`debugbridge: ${e.message}\n`);
          return EXIT.ok;
        });
      }
      case 'start': {
        const client = await DaemonClient.connect(paths);
        const status = await client.status();
        await client.close();
        io.out.write(`debugbridge daemon ${status.version} running (pid ${status.pid}) on ${status.socket}\n`);
        return EXIT.ok;
      }
      case 'stop': {
        const client = await DaemonClient.connectIfRunning(paths);
        if (!client) {
          io.out.write('debugbridge daemon: not running\n');
          return EXIT.ok;
        }
        const status = await client.stop();
        io.out.write(`debugbridge daemon stopped (pid ${status.pid}; ended ${status.activeSessions} running session${status.activeSessions === 1 ? '' : 's'})\n`);
        return EXIT.ok;
      }
      case 'status': {
        const client = await DaemonClient.connectIfRunning(paths);
        if (!client) {
          io.out.write(`debugbridge daemon: not running (socket ${paths.socket})\n`);
          return 1;
        }
        const s = await client.status();
        await client.close();
        const minutes = (ms: number) => `${Math.round(ms / 60_000)} min`;
        io.out.write(
          [
            `debugbridge daemon ${s.version}: running (pid ${s.pid}) for ${minutes(Date.now() - s.startedAt)}`,
            `sessions: ${s.activeSessions} running, ${s.sessions} in all`,
            ...(s.client ? [`this shell is client ${s.client.key} (ids end @${s.client.tag} for other clients)`] : []),
            ...clientLines(s),
            `socket: ${s.socket}`,
            `log: ${paths.log}`,
            `ends after ${minutes(s.idleShutdownMs)} without a client`,
          ].join('\n') + '\n',
        );
        return EXIT.ok;
      }
      case '--help':
      case '-h':
        io.out.write(DAEMON_USAGE);
        return EXIT.ok;
      default:
        io.err.write(`debugbridge daemon: ${action ? `unknown action "${action}"` : 'which action?'}\n\n${DAEMON_USAGE}`);
        return EXIT.usage;
    }
  } catch (e) {
    io.err.write(`${toDebugError(e).toText()}\n`);
    return EXIT.noDaemon;
  }
}

/** Each client's sessions by whole id: another client's session is reached on purpose with one of these. */
function clientLines(s: DaemonStatus): string[] {
  return (s.clients ?? []).flatMap((c) => [
    `client ${c.key || '(unnamed)'}${c.key === s.client?.key ? ' (this shell)' : ''}:`,
    ...c.sessions.map((session) => `  ${session.id} ${session.state} ${session.language} ${session.program}`),
  ]);
}

function textOf(result: CallToolResult): string {
  return result.content
    .filter((c) => c.type === 'text')
    .map((c) => (c as { text: string }).text)
    .join('\n');
}

function warnOnOtherVersion(client: DaemonClient, io: Io): void {
  const running = client.serverVersion;
  if (running && running !== VERSION) {
    io.err.write(`debugbridge: the daemon runs version ${running}, this command is ${VERSION}; \`debugbridge daemon stop\` restarts it with this one on the next call.\n`);
  }
}
