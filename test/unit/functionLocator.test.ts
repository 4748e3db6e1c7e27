import { describe, expect, it } from 'vitest';
import { locateFunctions } from '../../src/engines/node/functionLocator.js';
import { answersTo } from '../../src/engines/node/functionNames.js';

const source = `
function handleOrder(order) {
  return order.id;
}
class Cart {
  constructor() { this.items = []; }
  total(discount) {
    let sum = 0;
    return sum;
  }
  static empty() { return new Cart(); }
  #secret() { return 1; }
}
const helpers = { format(n) { return String(n); }, parse: (s) => Number(s) };
Legacy.prototype.render = function () {
  return 'old';
};
exports.exported = function () { return 1; };
const arrow = (x) => x * 2;
register({ handleOrder: () => handleOrder });
`;

describe('functionLocator', () => {
  const sites = locateFunctions(source);
  const find = (query: string) => sites.filter((s) => answersTo(s, query)).map((s) => `${s.line + 1}:${s.column}`);

  it('finds declarations, class members, object members and assigned functions, at their first statement', () => {
    expect(find('handleOrder')).toEqual(['3:2']);
    expect(find('Cart.total')).toEqual(['8:4']);
    expect(find('Cart.prototype.total')).toEqual(['8:4']);
    expect(find('total')).toEqual(['8:4']);
    expect(find('Cart')).toEqual(['6:18']);
    expect(find('Cart.empty')).toEqual(['11:19']);
    expect(find('Cart.#secret')).toEqual(['12:14']);
    expect(find('helpers.format')).toEqual(['14:30']);
    expect(find('helpers.parse')).toEqual(['14:65']);
    expect(find('Legacy.render')).toEqual(['16:2']);
    expect(find('Legacy.prototype.render')).toEqual(['16:2']);
    expect(find('exported')).toEqual(['18:33']);
    expect(find('arrow')).toEqual(['19:21']);
  });

  it('answers nothing for a name that is not there, and for text that does not parse', () => {
    expect(find('missing')).toEqual([]);
    expect(find('Cart.missing')).toEqual([]);
    expect(locateFunctions('function (')).toEqual([]);
  });
});
