/**
 * The exceptions an ExceptionGroup holds (Python 3.11), which debugpy's traceback text leaves out:
 * read in the stopped frame from pydevd's `__exception__`, the first few, each message capped.
 */
import type { ExceptionCause } from '../../core/types.js';

const MEMBERS_SHOWN = 5;
const MESSAGE_CHARS = 200;

/** ensure_ascii JSON: its repr escapes only backslashes and single quotes, so it reads back whole. */
export const GROUP_MEMBERS_EXPRESSION =
  `__import__('json').dumps([[type(e).__name__, str(e)[:${MESSAGE_CHARS}]] for e in __exception__[1].exceptions[:${MEMBERS_SHOWN}]] + ` +
  `([['…', f'{len(__exception__[1].exceptions) - ${MEMBERS_SHOWN}} more']] if len(__exception__[1].exceptions) > ${MEMBERS_SHOWN} else []))`;

export function isExceptionGroup(type: string | undefined): boolean {
  return /(^|\.)\w*ExceptionGroup$/.test(type ?? '');
}

/** The members from the expression's value (a Python str's repr); none when it is not that. */
export function groupMembers(repr: string): ExceptionCause[] {
  if (!/^'.*'$/s.test(repr)) return [];
  try {
    const pairs = JSON.parse(repr.slice(1, -1).replace(/\\(.)/g, '$1')) as [string, string][];
    return pairs.map(([type, message]) => ({ type, ...(message ? { message } : {}), relation: 'member' }));
  } catch {
    return [];
  }
}
