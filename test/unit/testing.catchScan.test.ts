/** Where the user's own code catches an exception, read from the source text (pure logic). */
import { describe, expect, it } from 'vitest';
import { caughtAt } from '../../src/testing/catchScan.js';

/** The line and column of `@` in a source (removed), and the lines. */
function at(source: string): { lines: string[]; line: number; column: number } {
  const lines = source.split('\n');
  const line = lines.findIndex((l) => l.includes('@'));
  const column = lines[line].indexOf('@') + 1;
  lines[line] = lines[line].replace('@', '');
  return { lines, line: line + 1, column };
}

describe('caughtAt: braces (JavaScript, TypeScript, C#)', () => {
  const caught = (source: string) => {
    const p = at(source);
    return caughtAt(p.lines, p.line, p.column, 'braces');
  };

  it('is caught inside a try body that has a catch', () => {
    expect(caught('function f() {\n  try {\n    @JSON.parse(s);\n  } catch (e) {\n    return null;\n  }\n}')).toBe(true);
    expect(caught('int? F() {\n  try { return @int.Parse(t); }\n  catch (FormatException) { return null; }\n}')).toBe(true);
  });

  it('is not caught by a try with only a finally, nor in the catch block itself', () => {
    expect(caught('function f() {\n  try {\n    @boom();\n  } finally {\n    done();\n  }\n}')).toBe(false);
    expect(caught('function f() {\n  try {\n    a();\n  } catch (e) {\n    @throw e;\n  }\n}')).toBe(false);
  });

  it('stops at the function: a try around a function definition does not catch its body', () => {
    expect(caught('try {\n  test("x", () => {\n    @expect(1).toBe(2);\n  });\n} catch {}')).toBe(false);
    expect(caught('try {\n  function g() {\n    @boom();\n  }\n} catch {}')).toBe(false);
  });

  it('sees through control blocks, strings, comments, regexes and template literals', () => {
    expect(caught('function f() {\n  try {\n    if (a) {\n      const s = "}"; // }\n      const r = /}/;\n      const t = `${"}"} }`;\n      @boom();\n    }\n  } catch {}\n}')).toBe(true);
  });

  it('is not caught in a test body with no try', () => {
    expect(caught("test('totals', () => {\n  @expect(total([1], 0)).toBe(2);\n});")).toBe(false);
  });
});

describe('caughtAt: Python', () => {
  const caught = (source: string) => {
    const p = at(source);
    return caughtAt(p.lines, p.line, p.column, 'python');
  };

  it('is caught in a try body, or in a with block that expects the exception', () => {
    expect(caught('def f():\n    try:\n        @int(x)\n    except ValueError:\n        return None')).toBe(true);
    expect(caught('def test_x():\n    with pytest.raises(ZeroDivisionError):\n        @1 / 0')).toBe(true);
    expect(caught('def test_x(self):\n    with self.assertRaises(KeyError):\n        @d["k"]')).toBe(true);
  });

  it('is not caught in an except block, in a plain with, or past the function', () => {
    expect(caught('def f():\n    try:\n        a()\n    except ValueError:\n        @raise')).toBe(false);
    expect(caught('def f():\n    with open(p) as h:\n        @h.read()')).toBe(false);
    expect(caught('try:\n    def g():\n        @boom()\nexcept Exception:\n    pass')).toBe(false);
  });

  it('is not caught by a try with only a finally (threading runs a thread\'s target so)', () => {
    expect(caught('def run(self):\n    try:\n        @self._target()\n    finally:\n        del self._target')).toBe(false);
    expect(caught('def f():\n    try:\n        @g()\n    else:\n        h()\n    finally:\n        done()\n    except_count = 1')).toBe(false);
    expect(caught('def f():\n    try:\n        @g()\n\n    # a comment\n    except KeyError:\n        pass')).toBe(true);
  });
});
