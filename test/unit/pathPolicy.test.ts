import { mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { PathPolicy } from '../../src/core/pathPolicy.js';

const work = mkdtempSync(join(tmpdir(), 'dbb-paths-'));
const root = join(work, 'root');
const rootlike = join(work, 'root-sibling');
mkdirSync(join(root, 'src'), { recursive: true });
mkdirSync(rootlike);
writeFileSync(join(root, 'src', 'app.py'), 'x = 1\n');
writeFileSync(join(rootlike, 'other.py'), 'x = 1\n');
symlinkSync(join(rootlike, 'other.py'), join(root, 'escape.py'));

describe('PathPolicy', () => {
  it('makes paths absolute and checks their kind, with no roots set', () => {
    const open = new PathPolicy();
    expect(open.resolve('src/app.py', root, 'program')).toBe(join(root, 'src', 'app.py'));
    expect(() => open.resolve('src', root, 'breakpoint file', 'file')).toThrow(/The breakpoint file .* is a folder, not a file/);
    expect(() => open.resolve('/dev/null', root, 'cwd', 'directory')).toThrow(/character device/);
    expect(open.resolve('not/there.py', root, 'file', 'file')).toBe(join(root, 'not', 'there.py'));
  });

  it('keeps paths under the roots, links followed, and names the roots when not', () => {
    const roots = new PathPolicy([root]);
    expect(roots.resolve('src/app.py', root, 'program')).toBe(join(root, 'src', 'app.py'));
    expect(roots.resolve('src/later.py', root, 'file')).toBe(join(root, 'src', 'later.py'));
    for (const path of [join(rootlike, 'other.py'), join(root, 'escape.py'), join(root, '..', 'root-sibling', 'other.py'), '/etc/passwd']) {
      expect(() => roots.resolve(path, root, 'file'), path).toThrow(expect.objectContaining({ code: 'PATH_NOT_ALLOWED' }));
    }
    expect(() => roots.requireAllowed(join(root, 'escape.py'), 'pythonPath', { followLinks: false })).not.toThrow();
  });

  it('reads its roots from DEBUGBRIDGE_ROOTS', () => {
    const policy = PathPolicy.fromEnv({ DEBUGBRIDGE_ROOTS: `${root}:${rootlike}` });
    expect(policy.restricted).toBe(true);
    expect(policy.resolve(join(rootlike, 'other.py'), root, 'file')).toBe(join(rootlike, 'other.py'));
    expect(PathPolicy.fromEnv({}).restricted).toBe(false);
  });
});
