/**
 * Why a frame has no `this`: a static method has none; an iterator, an async method or a lambda runs
 * in a class the compiler generated, which keeps the object it was called on only when the code uses
 * `this` (a Release build keeps nothing more). Both evaluators answer the same words.
 */
import type { ModuleRegistry } from '../moduleRegistry.js';
import type { FrameHandle } from '../stackReader.js';

export function missingThis(modules: ModuleRegistry, frame: FrameHandle): string {
  const meta = modules.get(frame.module)?.symbols?.metadata;
  const method = meta?.methodByToken(frame.methodToken);
  if (meta && method && meta.type(method.declaringType).name.startsWith('<')) {
    return "'this' is not available here: this code runs in a class the compiler generated (an iterator, an async method or a lambda), which keeps 'this' only when the code uses it";
  }
  return "'this' is not available in a static method";
}
