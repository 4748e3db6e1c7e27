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
