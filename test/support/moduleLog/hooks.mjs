// The resolve hook of preload.mjs: logs each module resolved before the tool list went out.
import { appendFileSync } from 'node:fs';

let listed;
let file;

export function initialize(data) {
  ({ listed, file } = data);
}

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (file && Atomics.load(listed, 0) === 0) appendFileSync(file, `${resolved.url}\n`);
  return resolved;
}
