// The Windows side of the test bed, run by Windows node.exe under Wine: starts the debugbridge server
// (node.exe dist\cli.js) with ordinary pipes as its stdin and stdout, as an MCP client on Windows
// would, and relays them to a TCP connection from the Linux side, where the tests' MCP client runs
// (a Linux pipe as node.exe's stdout fails under Wine with EBADF; sockets work).
//   node.exe bridge.cjs <port> <server stderr log> <node.exe> <cli.js> [args...]
'use strict';
const { spawn } = require('node:child_process');
const { createWriteStream } = require('node:fs');
const { connect } = require('node:net');

const [port, stderrLog, nodeExe, ...serverArgs] = process.argv.slice(2);
const socket = connect({ host: '127.0.0.1', port: Number(port) });
socket.on('connect', () => {
  const server = spawn(nodeExe, serverArgs, { stdio: ['pipe', 'pipe', 'pipe'], windowsHide: true });
  server.stderr.pipe(createWriteStream(stderrLog));
  socket.pipe(server.stdin);
  server.stdout.pipe(socket);
  // The client hanging up is an MCP client disconnecting: the server sees its stdin end.
  socket.on('close', () => server.stdin.end());
  socket.on('error', () => server.stdin.end());
  server.on('exit', (code) => {
    socket.end();
    process.exitCode = code ?? 1;
  });
});
socket.on('error', () => process.exit(2));
