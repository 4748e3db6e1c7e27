/**
 * A target's path map: local to remote and back, the longest mapping first, whole folder names
 * only, and a path under no mapping unchanged.
 */
import { homedir } from 'node:os';
import { describe, expect, it } from 'vitest';
import { PathMap } from '../../src/core/pathMap.js';

describe('PathMap', () => {
  const map = new PathMap([
    { local: '/home/ann/code/shop/', remote: '/src' },
    { local: '/home/ann/code/shop/vendor', remote: '/opt/vendor' },
  ]);

  describe.each([
    { local: '/home/ann/code/shop/app.py', remote: '/src/app.py' },
    { local: '/home/ann/code/shop', remote: '/src' },
    { local: '/home/ann/code/shop/vendor/lib/x.js', remote: '/opt/vendor/lib/x.js' },
  ])('$local ⇄ $remote', ({ local, remote }) => {
    it('maps out and back', () => {
      expect(map.toRemote(local)).toBe(remote);
      expect(map.toLocal(remote)).toBe(local);
    });
  });

  it('leaves a path under no mapping, or a folder that only starts alike, as it is', () => {
    expect(map.toRemote('/home/ann/code/shopping/a.py')).toBe('/home/ann/code/shopping/a.py');
    expect(map.toLocal('/srcs/a.py')).toBe('/srcs/a.py');
    expect(map.toLocal('/usr/lib/python3/asyncio/runners.py')).toBe('/usr/lib/python3/asyncio/runners.py');
  });

  it('expands ~ in a local folder', () => {
    expect(new PathMap([{ local: '~/code', remote: '/app' }]).toLocal('/app/main.py')).toBe(`${homedir()}/code/main.py`);
  });

  it('maps the files of frames, bindings, exceptions and their traceback text', () => {
    expect(map.frame({ id: 1, name: 'f', file: '/src/app.py', line: 3, column: 1 }).file).toBe('/home/ann/code/shop/app.py');
    expect(map.binding({ id: 2, verified: true, file: '/src/app.py', line: 3 }).file).toBe('/home/ann/code/shop/app.py');
    const exception = map.exception({ type: 'ValueError', stackTrace: 'File "/src/app.py", line 3\nFile "/srcs/x.py"\n  at f (/usr/src/y.js:1)\n/src/z.py file:///src/w.mjs', thrownAt: { file: '/src/app.py', line: 3 }, causes: [{ relation: 'cause', thrownAt: { file: '/opt/vendor/v.py', line: 1 } }] });
    expect(exception).toMatchObject({
      stackTrace: 'File "/home/ann/code/shop/app.py", line 3\nFile "/srcs/x.py"\n  at f (/usr/src/y.js:1)\n/home/ann/code/shop/z.py file:///home/ann/code/shop/w.mjs',
      thrownAt: { file: '/home/ann/code/shop/app.py' },
      causes: [{ thrownAt: { file: '/home/ann/code/shop/vendor/v.py' } }],
    });
  });
  it("maps the frames of pending async chains and of deadlocks (a .NET hang report's)", () => {
    const frame = { id: 0, name: 'Shop.Cart.SaveAsync', file: '/src/Cart.cs', line: 12, column: 1, async: true };
    const report = map.pendingTasks({ tasks: [{ frames: [frame], waitsOn: { kind: 'delay' } }], deadlocks: [{ kind: 'cycle', frames: [frame] }], omitted: 2 });
    expect(report).toMatchObject({ tasks: [{ frames: [{ file: '/home/ann/code/shop/Cart.cs' }] }], deadlocks: [{ frames: [{ file: '/home/ann/code/shop/Cart.cs' }] }], omitted: 2 });
  });
});
