import { describe, expect, it } from 'vitest';
import { candidateNames, joinPath, parseVariablePath } from '../../src/core/variablePath.js';

describe('parseVariablePath', () => {
  it('reads members, indexes and quoted keys', () => {
    expect(parseVariablePath('order.items[2].price')).toEqual([
      { kind: 'name', name: 'order' },
      { kind: 'name', name: 'items' },
      { kind: 'index', index: 2 },
      { kind: 'name', name: 'price' },
    ]);
    expect(parseVariablePath('table["counts"]')).toEqual([
      { kind: 'name', name: 'table' },
      { kind: 'key', key: 'counts' },
    ]);
    expect(parseVariablePath("cache['a]b']")).toEqual([
      { kind: 'name', name: 'cache' },
      { kind: 'key', key: 'a]b' },
    ]);
  });

  it('rejects broken paths with the position', () => {
    expect(() => parseVariablePath('items[2')).toThrow(/unclosed/);
    expect(() => parseVariablePath('.x')).toThrow(/cannot start/);
    expect(() => parseVariablePath('a[]')).toThrow(/empty/);
  });

  it('offers the child names runtimes use', () => {
    expect(candidateNames({ kind: 'index', index: 2 })).toEqual(['[2]', '2']);
    expect(candidateNames({ kind: 'key', key: 'k' })).toContain("'k'");
  });
});

describe('joinPath', () => {
  it('writes child paths the way the agent would', () => {
    expect(joinPath(undefined, 'order')).toBe('order');
    expect(joinPath('order', 'items')).toBe('order.items');
    expect(joinPath('order.items', '2')).toBe('order.items[2]');
    expect(joinPath('order.items', '[2]')).toBe('order.items[2]');
    expect(joinPath('table', "'counts'")).toBe("table['counts']");
    expect(joinPath('obj', 'weird name')).toBe('obj["weird name"]');
  });
});
