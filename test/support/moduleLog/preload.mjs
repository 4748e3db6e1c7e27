// Loaded with `node --import` before a server: every module resolved until the server first writes
// a tool list to stdout is appended to the file named by MODULE_LOG (one URL a line). The resolve
// hook runs on the loader's own thread; a shared flag tells it when the list went out.
import { register } from 'node:module';

const listed = new Int32Array(new SharedArrayBuffer(4));
register('./hooks.mjs', import.meta.url, { data: { listed, file: process.env.MODULE_LOG } });
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('"tools":[')) Atomics.store(listed, 0, 1);
  return write(chunk, ...rest);
};
