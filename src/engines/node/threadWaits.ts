/**
 * What a JavaScript thread waits on. V8 shows no frame for a builtin such as `Atomics.wait`, so
 * the call on the line the top frame of the program stands at says it; an isolate that ran no
 * JavaScript when asked waits in its event loop (I/O, timers, messages).
 */
import { lineAt } from '../../core/sourceReader.js';
import type { ThreadDump, ThreadWait } from '../../core/types.js';

const WAITS: { pattern: RegExp; kind: ThreadWait['kind'] }[] = [
  { pattern: /\bAtomics\.wait\(\s*([^,()]+),\s*([^,()]+)/, kind: 'atomics' },
  { pattern: /\bawait\s+([\w.]+)/, kind: 'await' },
  { pattern: /\b(\w+Sync)\(/, kind: 'io' },
];

export function withWaits(dump: ThreadDump): ThreadDump {
  const top = dump.frames.find((f) => f.presentationHint !== 'subtle');
  const text = top && lineAt(top.file, top.line)?.replace(/\/\/.*$/, '');
  if (!text) return dump;
  for (const { pattern, kind } of WAITS) {
    const m = pattern.exec(text);
    if (m) return { ...dump, wait: { kind, object: kind === 'atomics' ? `${m[1].trim()}[${m[2].trim()}]` : m[1] } };
  }
  return dump;
}

/** An isolate whose pause did not land: no JavaScript on its stack, it waits for its event loop. */
export function idleDump(id: number, name: string): ThreadDump {
  return { id, name, frames: [], wait: { kind: 'io', object: 'event loop, no JavaScript running' } };
}
