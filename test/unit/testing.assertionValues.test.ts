/** Expected and actual values from the messages of the assertion libraries (pure logic). */
import { describe, expect, it } from 'vitest';
import { assertionValues } from '../../src/testing/assertionValues.js';
import { closestNames } from '../../src/testing/closestNames.js';

describe('assertionValues', () => {
  it.each([
    ['node:assert', 'Expected values to be strictly equal:\n\n25 !== 30\n', '30', '25'],
    ['jest', 'expect(received).toBe(expected) // Object.is equality\n\nExpected: 30\nReceived: 25', '30', '25'],
    ['vitest (chai)', 'expected 25 to be 30 // Object.is equality', '30', '25'],
    ['xUnit', 'Assert.Equal() Failure: Values differ\nExpected: 30\nActual:   25', '30', '25'],
    ['xUnit on Windows (CRLF)', 'Assert.Equal() Failure: Values differ\r\nExpected: 30\r\nActual:   25', '30', '25'],
    ['NUnit', '  Assert.That(x, Is.EqualTo(30))\n  Expected: 30\n  But was:  25\n', '30', '25'],
    ['MSTest', "Assert.AreEqual failed. Expected:<30>. Actual:<25>. 'expected' expression: 'expected'.", '30', '25'],
  ])('%s', (_name, message, expected, actual) => {
    expect(assertionValues(message)).toEqual({ expected, actual });
  });

  it('gives none for a message without them (pytest, unittest)', () => {
    expect(assertionValues('assert 25 == 30')).toBeUndefined();
    expect(assertionValues('25 != 30')).toBeUndefined();
  });
});

describe('closestNames', () => {
  it('ranks by the test\'s own name, names containing the wanted one first', () => {
    expect(closestNames('test_totl', ['t.py::test_add', 't.py::test_total', 't.py::G::test_in_class'])[0]).toBe('t.py::test_total');
    expect(closestNames('CalcTest.test_ad', ['m.CalcTest.test_total', 'm.CalcTest.test_add'])[0]).toBe('m.CalcTest.test_add');
    expect(closestNames('Total', ['Ns.PricesTests.Adds', 'Ns.PricesTests.Totals'])[0]).toBe('Ns.PricesTests.Totals');
  });
});
