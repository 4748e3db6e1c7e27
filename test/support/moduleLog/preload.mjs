// Loaded with `node --import` before a server: every module resolved until the server first writes
// a tool list to stdout is appended to the file named by MODULE_LOG (one URL a line, node:… for a
// built-in). ES modules are seen by a resolve hook, on the loader's own thread (a shared flag tells
// it when the list went out); CommonJS require() calls, which no hook sees in Node.js 20, by wrapping
// Module._load, the function every require() goes through.
import { appendFileSync } from 'node:fs';
import Module, { isBuiltin, register } from 'node:module';
import { pathToFileURL } from 'node:url';

const file = process.env.MODULE_LOG;
const listed = new Int32Array(new SharedArrayBuffer(4));
register('./hooks.mjs', import.meta.url, { data: { listed, file } });
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('"tools":[')) Atomics.store(listed, 0, 1);
  return write(chunk, ...rest);
};

const load = Module._load;
Module._load = function (request, parent, isMain) {
  if (file && Atomics.load(listed, 0) === 0) {
    const url = isBuiltin(request) ? (request.startsWith('node:') ? request : `node:${request}`) : pathToFileURL(Module._resolveFilename(request, parent, isMain)).href;
    appendFileSync(file, `${url}\n`);
  }
  return load.apply(this, arguments);
};
