import { describe, expect, it } from 'vitest';
import { callSideEffect, type CalledMethod } from '../../src/engines/dotnet/host/evaluation/sideEffects.js';

const method = (over: Partial<CalledMethod>): CalledMethod => ({
  assembly: 'System.Private.CoreLib',
  typeFullName: 'System.Object',
  isValueType: false,
  name: 'ToString',
  specialName: false,
  compilerGenerated: false,
  isConstructor: false,
  params: [],
  ...over,
});

describe('calls an evaluation without side effects may run (as Visual Studio\'s `, nse`)', () => {
  it.each<[string, Partial<CalledMethod>, string | undefined]>([
    ['a getter of the program', { assembly: 'Shop', typeFullName: 'Shop.Order', name: 'get_Total', specialName: true }, undefined],
    ['a setter of the program', { assembly: 'Shop', typeFullName: 'Shop.Order', name: 'set_Total', specialName: true, params: ['decimal'] }, 'it calls Order.set_Total(decimal)'],
    ['a record\'s ToString', { assembly: 'Shop', typeFullName: 'Shop.Order', compilerGenerated: true }, undefined],
    ['a method of the program', { assembly: 'Shop', typeFullName: 'Shop.Book', name: 'Adjust', params: ['int'] }, 'it calls Book.Adjust(int)'],
    ['LINQ', { assembly: 'System.Linq', typeFullName: 'System.Linq.Enumerable', name: 'Count', params: ['System.Collections.Generic.IEnumerable<int>'] }, undefined],
    ['a list\'s Contains', { assembly: 'System.Private.CoreLib', typeFullName: 'System.Collections.Generic.List`1', name: 'Contains', params: ['string'] }, undefined],
    ['a list\'s RemoveAll', { typeFullName: 'System.Collections.Generic.List`1', name: 'RemoveAll', params: ['System.Predicate<string>'] }, 'it calls List.RemoveAll(System.Predicate<string>)'],
    ['a dictionary\'s Clear', { typeFullName: 'System.Collections.Generic.Dictionary`2', name: 'Clear' }, 'it calls Dictionary.Clear()'],
    ['Math.Max', { typeFullName: 'System.Math', name: 'Max', params: ['int', 'int'] }, undefined],
    ['int.CompareTo', { typeFullName: 'System.Int32', isValueType: true, name: 'CompareTo', params: ['int'] }, undefined],
    ['an operator of a framework struct', { typeFullName: 'System.Numerics.BigInteger', isValueType: true, name: 'op_Addition', specialName: true }, undefined],
    ['Console.WriteLine', { assembly: 'System.Console', typeFullName: 'System.Console', name: 'WriteLine', params: ['string'] }, 'it calls Console.WriteLine(string)'],
    ['a nested type\'s method', { assembly: 'Shop', typeFullName: 'Shop.Book+Page', name: 'Turn' }, 'it calls Page.Turn()'],
    ['a framework constructor', { typeFullName: 'System.Collections.Generic.List`1', name: '.ctor', isConstructor: true }, undefined],
    ['the program\'s constructor', { assembly: 'Shop', typeFullName: 'Shop.Entry', name: '.ctor', isConstructor: true, params: ['int'] }, 'it runs the constructor of Entry'],
  ])('%s', (_, over, effect) => {
    expect(callSideEffect(method(over))).toBe(effect);
  });
});
