/**
 * Which awaiting caller catches an exception: the runtime searches only the physical stack for a
 * handler, and an async method's own handler (the compiler's, that stores the exception in its task)
 * takes it there. The awaiting methods get it when they resume; each one's try blocks around the
 * await it is suspended at say whether it catches it, nearest first.
 */
import type { CatchSite } from '../../../core/types.js';
import type { ModuleRegistry } from './moduleRegistry.js';
import type { StackReader } from './stackReader.js';

/** Logical frames searched for a catch (the autopsy lists no more). */
const FRAMES_READ = 64;

/** The awaiting callers on a thread's stack that catch an exception of `types` (class first, then bases), up to the first that surely does. */
export async function asyncCatchSites(stack: StackReader, modules: ModuleRegistry, threadId: number, types: string[]): Promise<CatchSite[]> {
  const { frames } = await stack.frames(threadId, 0, FRAMES_READ);
  const sites: CatchSite[] = [];
  for (const frame of frames) {
    const handle = frame.async && frame.id > 0 ? stack.handle(frame.id) : undefined;
    const caught = handle && modules.get(handle.module)?.symbols?.asyncCatch(handle.methodToken, handle.ilOffset, types);
    if (!caught) continue;
    sites.push({ name: frame.name, line: frame.line, at: { file: caught.location.file, line: caught.location.line }, ...(caught.filter ? { filter: true } : {}) });
    if (!caught.filter) break;
  }
  return sites;
}
