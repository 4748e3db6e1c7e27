export const reloadHelp = `Usage: debugbridge reload [options] -- <server command> [args…]

Runs an MCP server (stdio) behind a transparent proxy and restarts it whenever its files
change, without the client noticing: the client's initialize is replayed to the new server,
messages sent during the restart are held and delivered, requests the old server never
answered get a JSON-RPC error (-32603) saying they may be retried, and the client is sent
notifications/tools/list_changed (and prompts/resources when the server declares them).

Options:
  -w, --watch <paths>      files or folders to watch, comma-separated or repeated (default: .)
  -i, --ignore <globs>     more patterns to ignore, e.g. "dist/**,*.gen.ts"; always ignored:
                           .git, node_modules, *.log, editor temp and swap files
      --debounce <ms>      quiet time after the last change before reloading (default: 150)
  -b, --build "<cmd>"      shell command run before each restart; if it fails the old server
                           keeps running and the client gets a logging notification.
                           Do not watch the build's own output, or every build starts another.
      --kill-timeout <ms>  time the old server gets after SIGTERM before SIGKILL (default: 3000)
  -h, --help               this text

The server command is run directly (no shell), with its arguments as given; its stderr passes
through. A crashed server is restarted with backoff (250 ms doubling up to 10 s); after 5
crashes within a minute the proxy stops trying, answers requests with an error saying why, and
waits for the next file change. SIGUSR2 to the proxy forces a reload. When the client closes
stdin, or the proxy gets SIGTERM/SIGINT, the server is stopped and the proxy exits; if the proxy
itself is killed, a small watchdog process ends the server.

Example: debugbridge reload --watch src --build "npm run build" -- node dist/server.js
`;
