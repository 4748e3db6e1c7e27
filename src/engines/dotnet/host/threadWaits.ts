/**
 * What a .NET thread waits on. The runtime tells for Monitor (`lock`, Monitor.Enter / Wait): the
 * native `blockingObjects` command answers the object and the thread that owns it. Other waits
 * (Thread.Sleep, Join, Task.Wait, .Result, await) run in framework code, shown as external: the
 * call on the line of the thread's innermost frame of the user's code says which; a Monitor that is a
 * task's blocked wait names the task's method.
 */
import { lineAt } from '../../../core/sourceReader.js';
import type { FrameInfo, ThreadWait } from '../../../core/types.js';
import type { Native } from './nativeSession.js';

const SOURCE_WAITS: { pattern: RegExp; kind: ThreadWait['kind'] }[] = [
  { pattern: /\bThread\.Sleep\(|\bTask\.Delay\(\S*\)\.Wait\(/, kind: 'sleep' },
  { pattern: /\bawait\s+([\w.]+)/, kind: 'await' },
  { pattern: /([\w.\]\[]+)\.Join\(/, kind: 'join' },
  { pattern: /([\w.\]\[]+)\.(?:Wait\(|Result\b|GetAwaiter\(\)\.GetResult\()|Task\.WaitAll\(/, kind: 'task' },
  { pattern: /\b(?:Read\w*|Receive\w*|Accept\w*)\(/, kind: 'io' },
];
/** The object of a Monitor wait, as the source names it. */
const MONITOR_OBJECT = /\block\s*\(\s*([^)]+?)\s*\)|Monitor\.(?:Enter|TryEnter|Wait)\(\s*([^,)]+)/;

/**
 * `blockedOn`: the async method whose task a Monitor belongs to (the one a `.Result` or `.Wait()`
 * sleeps on), from the pending tasks read off the heap.
 */
export async function threadWait(native: Native, threadId: number, frames: FrameInfo[], blockedOn?: (lock: string) => string | undefined): Promise<ThreadWait | undefined> {
  const top = frames.find((f) => f.file && !f.async);
  const text = top && lineAt(top.file, top.line)?.replace(/\/\/.*$/, '');
  const { waits } = await native.call('blockingObjects', { threadId });
  const [monitor] = waits;
  const task = monitor?.value?.addr ? blockedOn?.(monitor.value.addr) : undefined;
  if (task) return { kind: 'task', object: task };
  if (monitor) {
    const named = text ? MONITOR_OBJECT.exec(text) : null;
    return { kind: monitor.reason, object: named?.[1] ?? named?.[2], ownerThreadId: monitor.owner };
  }
  for (const { pattern, kind } of SOURCE_WAITS) {
    const m = text ? pattern.exec(text) : null;
    if (m) return { kind, object: m[1] };
  }
  return undefined;
}
