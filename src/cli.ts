#!/usr/bin/env node
/**
 * debugbridge — the MCP server on stdio, plus `demo`, `doctor`, `reload`, and `call` / `daemon` for shells.
 * Nothing but protocol frames may reach stdout when serving: the subcommands print, the server does not.
 */
import { runStdioServer } from './server/stdioServer.js';
import { VERSION } from './version.js';

const HELP = `debugbridge ${VERSION} — debug real .NET, Python and Node.js programs from an AI agent (MCP)

Usage:
  debugbridge                 run the MCP server on stdio (what an MCP client starts)
  debugbridge demo [python|node|dotnet]
                              a scripted debugging session on the bundled samples, through the real MCP client
  debugbridge doctor [--target NAME]
                              which runtimes and adapters work here (or on that target), and how to fix the others
  debugbridge call <tool> [--name value …] ['{json}'] [--json]
                              run one tool from a shell against a background daemon that keeps the
                              sessions between commands (started on first use; debugbridge call lists tools)
  debugbridge daemon start|stop|status
                              that daemon (it ends by itself after 30 minutes without a client)
  debugbridge agent           the far side of a target: started by its exec command (docker exec -i,
                              kubectl exec -i, ssh), runs the engines there over its stdin/stdout
  debugbridge reload [options] -- <server command…>
                              hot-reload proxy for MCP servers you develop (debugbridge reload --help)
  debugbridge --version | --help

Environment:
  DEBUGBRIDGE_LOG=debug|info|warning|error   stderr log level (default warning)
  DEBUGBRIDGE_PYTHON=/path/to/python          interpreter with debugpy
  DEBUGBRIDGE_STATE_DIR=/path                 where session files are kept
  DEBUGBRIDGE_RUNTIME_DIR=/path               the daemon's private folder (socket, log)
  DEBUGBRIDGE_DAEMON_IDLE_MS=1800000          the daemon's idle shutdown
  DEBUGBRIDGE_ROOTS=/dir1:/dir2               only paths under these folders (program, files, cwd)
  DEBUGBRIDGE_IDLE_TIMEOUT=1800               seconds a session may sit unused before it ends (0 = never)
  DEBUGBRIDGE_MAX_SESSIONS=32                 live sessions at most
  DEBUGBRIDGE_TARGETS='{"web": {"command": ["docker","exec","-i","web","debugbridge","agent"],
    "pathMappings": [{"local": "~/code/web", "remote": "/src"}]}}'
                                              where sessions may run (session_launch target: "web");
                                              also "targets" in ./debugbridge.json and in
                                              ~/.config/debugbridge/config.json (this variable wins a name)
`;

async function main(argv: string[]): Promise<number | undefined> {
  const [command, ...rest] = argv;
  switch (command) {
    case undefined:
    case 'serve': {
      await runStdioServer(VERSION);
      return undefined; // keeps running until the client goes away
    }
    case 'demo': {
      const { runDemo } = await import('./demo/runDemo.js');
      return runDemo(rest);
    }
    case 'doctor': {
      const { runDoctor } = await import('./doctor.js');
      return runDoctor(rest);
    }
    case 'call': {
      const { runCall } = await import('./daemon/shellCommands.js');
      return runCall(rest);
    }
    case 'daemon': {
      const { runDaemonCommand } = await import('./daemon/shellCommands.js');
      return runDaemonCommand(rest);
    }
    case 'agent': {
      const { runAgent } = await import('./remote/agent.js');
      return runAgent();
    }
    case 'reload': {
      const { runReload } = await import('./reload/index.js');
      return runReload(rest);
    }
    case '--version':
    case '-v':
      process.stdout.write(`${VERSION}\n`);
      return 0;
    case '--help':
    case '-h':
    case 'help':
      process.stdout.write(HELP);
      return 0;
    default:
      process.stderr.write(`debugbridge: unknown command "${command}"\n\n${HELP}`);
      return 2;
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== undefined) process.exitCode = code;
  },
  (e: unknown) => {
    process.stderr.write(`debugbridge: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exitCode = 1;
  },
);
