/**
 * What a Python thread waits on. The interpreter does not say (a thread blocked in
 * `lock.acquire()` runs no Python code, and a plain Lock records no owner), so the source does:
 * the call on the line a thread's top frames stand at (`with lock_b:`, `lock.acquire()`,
 * `t.join()`, `time.sleep()`, `sock.recv()` …), and the `with` blocks around each frame's line,
 * which name the locks it holds. The core matches a waited-on lock to the thread that holds it.
 */
import { lineAt, readSourceLines } from '../../core/sourceReader.js';
import type { FrameInfo, HeldLock, ThreadDump, ThreadWait } from '../../core/types.js';

/** Frames from the top whose line may name the wait (the first ones may be library code). */
const WAIT_FRAMES = 3;
/** A plain name, attribute or subscript: what a lock is reached by (a call such as open() is no lock). */
const HANDLE = String.raw`[A-Za-z_][\w.]*(?:\[[^\]]*\])?`;

const WAITS: { pattern: RegExp; kind: ThreadWait['kind'] }[] = [
  { pattern: new RegExp(String.raw`^\s*(?:async\s+)?with\s+(${HANDLE})\s*(?:,|:|\sas\s)`), kind: 'lock' },
  { pattern: new RegExp(String.raw`(${HANDLE})\.acquire\(`), kind: 'lock' },
  { pattern: /\bawait\s+([^\s(]+)/, kind: 'await' },
  { pattern: /\b(?:time\.)?sleep\(/, kind: 'sleep' },
  { pattern: new RegExp(String.raw`(?<!["'])\b(${HANDLE})\.join\(`), kind: 'join' },
  { pattern: new RegExp(String.raw`(${HANDLE})\.wait(?:_for)?\(`), kind: 'wait' },
  { pattern: new RegExp(String.raw`(${HANDLE})\.(?:recv\w*|accept|read\w*|communicate)\(|\b(input|select)\(`), kind: 'io' },
  // Only what is named like a queue: a dict's get never blocks.
  { pattern: new RegExp(String.raw`(${HANDLE}(?:queue|q))\.get\(`, 'i'), kind: 'io' },
];
/** Calls named like a wait that are none (`os.path.join`). */
const NOT_WAITS = /(?:^|\.)path$/;

export function withWaits(dump: ThreadDump): ThreadDump {
  if (dump.error || !dump.frames.length) return dump;
  const holds = dump.frames.flatMap(heldAround);
  return { ...dump, wait: waitOf(dump.frames), holds: holds.length ? holds : undefined };
}

function waitOf(frames: FrameInfo[]): ThreadWait | undefined {
  for (const frame of frames.slice(0, WAIT_FRAMES)) {
    const text = lineOf(frame);
    if (text === undefined) continue;
    for (const { pattern, kind } of WAITS) {
      const m = pattern.exec(text);
      const object = m?.[1] ?? m?.[2];
      if (m && !(object && NOT_WAITS.test(object))) return { kind, object };
    }
  }
  return undefined;
}

/**
 * The `with NAME:` blocks that enclose the frame's line: each line above with less indentation
 * opens the block the line is in. A frame on a `with` line itself is still entering it.
 */
function heldAround(frame: FrameInfo): HeldLock[] {
  const lines = frame.file ? readSourceLines(frame.file) : undefined;
  const here = lines?.[frame.line - 1];
  if (!lines || here === undefined) return [];
  const held: HeldLock[] = [];
  let indent = indentOf(here);
  for (let n = frame.line - 2; n >= 0 && indent > 0; n--) {
    const text = lines[n];
    if (!text.trim() || text.trimStart().startsWith('#') || indentOf(text) >= indent) continue;
    indent = indentOf(text);
    if (/^\s*(?:async\s+)?(?:def|class)\s/.test(text)) break;
    for (const object of withItems(text)) held.push({ object, file: frame.file, line: n + 1 });
  }
  return held;
}

function withItems(text: string): string[] {
  const m = /^\s*(?:async\s+)?with\s+(.+?):\s*(?:#.*)?$/.exec(text);
  if (!m) return [];
  const whole = new RegExp(String.raw`^(${HANDLE})(?:\s+as\s+\w+)?$`);
  return m[1].split(',').flatMap((item) => whole.exec(item.trim())?.[1] ?? []);
}

function lineOf(frame: FrameInfo): string | undefined {
  return lineAt(frame.file, frame.line)?.replace(/#.*$/, '');
}

function indentOf(text: string): number {
  return text.length - text.trimStart().length;
}
