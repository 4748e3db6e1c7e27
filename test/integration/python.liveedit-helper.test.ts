/**
 * The Python live edit helper in a real interpreter, without the debugger around it: a module is
 * imported, its file edited, and `apply` changes the running module; each case checks what the
 * running program then does, not only what the helper answers.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LIVE_EDIT_HELPER } from '../../src/engines/python/liveEditHelper.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const PYTHON = '/usr/bin/python3';
const run = requireRuntime('python3', hasCommand(PYTHON));

const MODULE = `"""Pricing."""
import math

RATE = 0.1


def total(items, fee=1):
    return sum(i["price"] for i in items) + fee


def make_counter():
    count = 0

    def bump():
        nonlocal count
        count += 1
        return count

    return bump


class Base:
    def describe(self):
        return "base"


class Cart(Base):
    kind = "basic"

    def __init__(self):
        self.items = []

    def add(self, price):
        self.items.append({"price": price})
        return self

    def value(self):
        return total(self.items)


class Unused:
    pass
`;

/**
 * Runs `script` after importing the module above (as `pricing`) and the helper; `edit(old, new)`
 * changes the module's file and `apply()` prints the helper's answer as JSON.
 */
function python(script: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'dbb-live-helper-'));
  writeFileSync(join(dir, 'pricing.py'), MODULE);
  writeFileSync(join(dir, 'helper.py'), LIVE_EDIT_HELPER);
  const prelude = `
import json, sys, types
sys.path.insert(0, ${JSON.stringify(dir)})
helper = types.ModuleType("_debugbridge_live")
exec(open(${JSON.stringify(join(dir, 'helper.py'))}).read(), helper.__dict__)
helper._install("[]")
import pricing
FILE = pricing.__file__
def edit(old, new):
    text = open(FILE).read()
    assert old in text, old
    open(FILE, "w").write(text.replace(old, new))
def apply():
    print(json.dumps(helper.apply("null")["changes"]))
`;
  return execFileSync(PYTHON, ['-c', `${prelude}\n${script}`], { encoding: 'utf8', timeout: 30_000 });
}

const lines = (out: string) => out.trim().split('\n');

describe.runIf(run)('python live edit helper', () => {
  describe('functions', () => {
    it('keeps closures made before the edit and runs them on the new code', () => {
      const out = python(`
counter = pricing.make_counter(); counter()
edit("        count += 1", "        count += 100")
apply()
print(counter())
`);
      const [changes, result] = lines(out);
      expect(JSON.parse(changes)[0]).toMatchObject({ status: 'applied', items: ['make_counter (function body)'] });
      expect(result).toBe('101');
    });

    it('sets constant defaults again, and a method sees the function it calls changed', () => {
      const out = python(`
cart = pricing.Cart().add(2)
edit("fee=1", "fee=10")
apply()
print(cart.value(), pricing.total([]))
`);
      expect(lines(out)[1]).toBe('12 10');
    });

    it('refuses changed decorators, and leaves the function as it ran', () => {
      const out = python(`
edit("def total(items, fee=1):", "@staticmethod\\ndef total(items, fee=2):")
apply()
print(pricing.total([]))
`);
      const [changes, result] = lines(out);
      expect(JSON.parse(changes)[0]).toMatchObject({ status: 'refused', reason: 'the decorators of total changed: they ran when it was defined' });
      expect(result).toBe('1');
    });
  });

  describe('classes', () => {
    it('adds a method whose super() names the running class, and a class constant', () => {
      const out = python(`
cart = pricing.Cart()
edit('    def value(self):', '    def describe(self):\\n        return "cart of " + super().describe()\\n\\n    def value(self):')
edit('kind = "basic"', 'kind = "premium"')
apply()
print(cart.describe(), pricing.Cart.kind)
`);
      const [changes, result] = lines(out);
      expect(JSON.parse(changes)[0].items).toEqual(['new function Cart.describe', 'Cart.kind = \'premium\'']);
      expect(result).toBe('cart of base premium');
    });

    it('defines a class again when its layout changed and no instance of it lives', () => {
      const out = python(`
edit("class Unused:\\n    pass", "class Unused(dict):\\n    pass")
apply()
print(issubclass(pricing.Unused, dict))
`);
      const [changes, result] = lines(out);
      expect(JSON.parse(changes)[0].items).toEqual(['class Unused (defined again: no instance of it lived)']);
      expect(result).toBe('True');
    });
  });

  describe('the module', () => {
    it('runs a new import and sets a changed constant; moved lines reach the code objects', () => {
      const out = python(`
line = pricing.total.__code__.co_firstlineno
edit('import math', 'import math\\nimport statistics')
edit('RATE = 0.1', 'RATE = 0.25')
apply()
print(pricing.RATE, pricing.statistics.__name__, pricing.total.__code__.co_firstlineno - line)
`);
      const [changes, result] = lines(out);
      expect(JSON.parse(changes)[0].items).toEqual(['RATE = 0.25', 'import (line 3)']);
      expect(result).toBe('0.25 statistics 1');
    });

    it('refuses the whole edit of a file whose module-level code changed: nothing runs, nothing changes', () => {
      const out = python(`
edit('RATE = 0.1', 'RATE = 0.1\\nprint("side effect")')
edit('return sum(i["price"] for i in items) + fee', 'return 0')
apply()
print(pricing.total([{"price": 3}]))
`);
      const [changes, result] = lines(out);
      expect(JSON.parse(changes)[0]).toMatchObject({ status: 'refused', reason: 'module-level code changed (line 5): it ran when the module was loaded and is not run again' });
      expect(result).toBe('4');
      expect(out).not.toContain('side effect');
    });
  });
});
