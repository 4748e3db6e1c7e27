import { describe, expect, it } from 'vitest';
import { BreakpointRegistry, statusOf } from '../../src/core/breakpointRegistry.js';

describe('BreakpointRegistry', () => {
  it('is pending until bound, and verified only from its binding', () => {
    const reg = new BreakpointRegistry();
    const bp = reg.add({ file: '/a.py', line: 3 });
    expect(statusOf(bp)).toBe('pending');
    reg.applyBinding({ id: bp.id, verified: false, message: 'no code' });
    expect(statusOf(reg.get(bp.id)!)).toBe('unverified');
    reg.applyBinding({ id: bp.id, verified: true, line: 4 });
    expect(statusOf(reg.get(bp.id)!)).toBe('verified');
    expect(reg.findAt('/a.py', 4)?.id).toBe(bp.id);
  });

  it('never reuses ids, also after restoring saved breakpoints', () => {
    const reg = new BreakpointRegistry([{ id: 7, kind: 'line', file: '/a.py', line: 1, hits: 3 }]);
    expect(reg.get(7)?.hits).toBe(0);
    const next = reg.add({ file: '/a.py', line: 2 });
    expect(next.id).toBe(8);
    reg.remove(8);
    expect(reg.add({ function: 'main' }).id).toBe(9);
  });

  it('groups specs by file and hides temporary ones from listings', () => {
    const reg = new BreakpointRegistry();
    reg.add({ file: '/a.py', line: 1 });
    reg.add({ file: '/b.py', line: 2, condition: 'x > 1' });
    reg.add({ file: '/a.py', line: 9 }, true);
    reg.add({ function: 'main' });
    expect(reg.files().sort()).toEqual(['/a.py', '/b.py']);
    expect(reg.lineSpecs('/a.py').map((s) => s.line)).toEqual([1, 9]);
    expect(reg.lineSpecs('/b.py')[0].condition).toBe('x > 1');
    expect(reg.functionSpecs().map((f) => f.function)).toEqual(['main']);
    expect(reg.all(false)).toHaveLength(3);
  });

  it('counts hits and forgets bindings on a new run', () => {
    const reg = new BreakpointRegistry();
    const bp = reg.add({ file: '/a.py', line: 1 });
    reg.applyBinding({ id: bp.id, verified: true });
    reg.countHits([bp.id, bp.id, 99]);
    expect(reg.get(bp.id)!.hits).toBe(2);
    reg.resetBindings();
    expect(statusOf(reg.get(bp.id)!)).toBe('pending');
    expect(reg.get(bp.id)!.hits).toBe(0);
  });
});

describe('one breakpoint, set, edited and checked the same way', () => {
  it('edits a breakpoint in place: a field given replaces, an empty one clears, and the place may move', () => {
    const reg = new BreakpointRegistry();
    const bp = reg.add({ file: '/a.py', line: 3, condition: 'x > 1' });
    reg.applyBinding({ id: bp.id, verified: true, line: 3 });
    const { record } = reg.edit(bp.id, { condition: '', trace: ['x', { expression: 'y', frameIndex: 1 }], maxHits: 5 });
    expect(record).toMatchObject({ id: bp.id, condition: undefined, maxHits: 5, binding: { verified: true } });
    expect(reg.lineSpecs('/a.py')[0].trace).toEqual([{ expression: 'x', frameIndex: 0 }, { expression: 'y', frameIndex: 1 }]);
    const moved = reg.edit(bp.id, { line: 4, trace: [] });
    expect(moved.before.line).toBe(3);
    expect(moved.record).toMatchObject({ line: 4, trace: undefined, maxHits: undefined, binding: undefined });
    reg.edit(bp.id, { enabled: false });
    expect(reg.lineSpecs('/a.py')).toEqual([]);
    expect(() => reg.edit(99, { condition: 'x' })).toThrow(/No breakpoint #99/);
    expect(() => reg.edit(bp.id, { function: 'main' })).toThrow(/is a line breakpoint and stays one/);
  });

  it('refuses what no runtime could do, wherever the breakpoint comes from', () => {
    const reg = new BreakpointRegistry();
    expect(() => reg.add({ line: 3 })).toThrow(/needs file and line, or function/);
    expect(() => reg.set({ function: 'main', file: '/a.py', line: 1 })).toThrow(/not both/);
    expect(() => reg.add({ file: '/a.py', line: 1, trace: ['x'], logMessage: 'x' })).toThrow(/A trace goes on a line breakpoint without logMessage/);
    expect(() => reg.add({ file: '/a.py', line: 1, maxHits: 3 })).toThrow(/maxHits .* needs trace/);
    expect(() => reg.set({ function: 'main', hitCondition: 'x' })).toThrow(/"x" is not a hit condition/);
    const kept = reg.set({ function: 'main', hitCondition: '% 2' });
    expect(() => reg.edit(kept.id, { hitCondition: 'often' })).toThrow(/not a hit condition/);
  });

  it('keeps two breakpoints on one line apart by their columns', () => {
    const reg = new BreakpointRegistry();
    const statement = reg.set({ file: '/a.js', line: 2 });
    const arrow = reg.set({ file: '/a.js', line: 2, column: 40 });
    expect(arrow.id).not.toBe(statement.id);
    expect(reg.set({ file: '/a.js', line: 2, column: 40, condition: 'p > 1' }).id).toBe(arrow.id);
  });
});
