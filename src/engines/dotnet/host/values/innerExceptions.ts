/** The InnerException chain of the exception a thread stopped on, read from its fields (no func-eval). */
import type { ExceptionCause } from '../../../../core/types.js';
import type { Native } from '../nativeSession.js';
import type { ValueReader } from './valueReader.js';

/** Nearest first, at most `max`. */
export async function innerExceptions(native: Native, reader: ValueReader, threadId: number, max: number): Promise<ExceptionCause[]> {
  const causes: ExceptionCause[] = [];
  let current = (await native.call('currentException', { threadId })).value;
  while (causes.length < max) {
    const [inner] = await reader.fieldsByName(current, ['_innerException']);
    if (!inner || inner.null) break;
    const [message] = await reader.fieldsByName(inner, ['_message']);
    causes.push({ type: reader.catalog.name(inner.chain?.[0]), message: message?.null ? undefined : message?.str, relation: 'inner' });
    current = inner;
  }
  return causes;
}
