/**
 * What a failure stop tells of the exception: its whole message, the assertion's expected and
 * actual values, and the kind that makes every answer say "where the test fails". Values come
 * from the thrown object where it carries them (node:assert, chai under vitest, jest's matcher
 * result: whole values, capped, with the expression that reads them whole), else from the
 * assertion library's message (xUnit, NUnit, MSTest, and the rest).
 */
import type { Engine } from '../core/engine.js';
import type { ExceptionInfo, FrameInfo } from '../core/types.js';
import { capText } from '../core/valueText.js';
import { assertionValues } from './assertionValues.js';

export const TEST_FAILURE = 'test failure';

/** Expected / actual beyond this are cut; the expressions read them whole. */
const VALUE_CHARS = 300;

/**
 * Where the thrown object keeps expected and actual, as an expression of the runtime's language
 * that answers the holder's path from `$exception` ('' when it has none).
 */
const VALUE_HOLDER: Record<string, string | undefined> = {
  // jest keeps them in its matcher's result; node:assert and chai on the error itself.
  node: "((e) => (e?.matcherResult && 'expected' in e.matcherResult ? '$exception.matcherResult' : e && typeof e === 'object' && 'expected' in e && 'actual' in e ? '$exception' : ''))($exception)",
};

export async function failureException(engine: Engine, threadId: number, given: ExceptionInfo | undefined, frame: FrameInfo | undefined, language: string): Promise<ExceptionInfo> {
  const info = given?.type && given.message !== undefined ? { ...given } : { ...given, ...(await engine.exceptionInfo(threadId).catch(() => undefined)) };
  const message = fullMessage(info);
  const values = (await thrownValues(engine, frame, language)) ?? assertionValues(message);
  // Where the assertion library threw says nothing the stack does not.
  return { ...info, message, thrownAt: undefined, kind: TEST_FAILURE, ...values };
}

/** Some engines keep the first line of a message; the stack text starts with all of it. */
function fullMessage(info: ExceptionInfo): string | undefined {
  const { message, stackTrace } = info;
  if (!message || message.includes('\n') || !stackTrace) return message;
  const head = stackTrace.split(/\n\s+at /)[0];
  const at = head.indexOf(message);
  if (at < 0) return message;
  // "AssertionError [ERR_ASSERTION]: Expected …" → from the message on.
  return head.slice(at).trimEnd() || message;
}

async function thrownValues(engine: Engine, frame: FrameInfo | undefined, language: string): Promise<Pick<ExceptionInfo, 'expected' | 'actual' | 'valuesExpression'> | undefined> {
  const find = VALUE_HOLDER[language];
  if (!find || !frame) return undefined;
  try {
    const holder = (await engine.evaluate(find, frame.id, 'watch')).value.replace(/^(['"])(.*)\1$/, '$2');
    if (!holder.startsWith('$exception')) return undefined;
    const expression = { expected: `${holder}.expected`, actual: `${holder}.actual` };
    // One at a time: an engine may hand the thrown value to each evaluation through one place.
    const expected = await engine.evaluate(expression.expected, frame.id, 'watch');
    const actual = await engine.evaluate(expression.actual, frame.id, 'watch');
    const cut = expected.value.length > VALUE_CHARS || actual.value.length > VALUE_CHARS || expected.ref > 0 || actual.ref > 0;
    return { expected: capText(expected.value, VALUE_CHARS), actual: capText(actual.value, VALUE_CHARS), ...(cut ? { valuesExpression: expression } : {}) };
  } catch {
    return undefined;
  }
}
