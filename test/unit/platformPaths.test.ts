import { describe, expect, it } from 'vitest';
import { envValue, nativeSpelling, pathKey, samePath } from '../../src/core/platformPaths.js';

describe('platform paths', () => {
  describe('on Windows', () => {
    it.each([
      ['C:\\Src\\App\\Program.cs', 'c:/src/app/program.cs'],
      ['Z:\\work\\a\\..\\b\\X.cs', 'z:\\WORK\\b\\x.cs'],
      ['C:\\src\\.\\x.cs', 'C:/src/x.cs'],
    ])('%s and %s are one file', (a, b) => {
      expect(samePath(a, b, 'win32')).toBe(true);
      expect(pathKey(a, 'win32')).toBe(pathKey(b, 'win32'));
    });

    it('tells different files apart', () => {
      expect(samePath('C:\\src\\a.cs', 'C:\\src\\b.cs', 'win32')).toBe(false);
    });

    it('spells PDB documents with backslashes, as Windows shows them', () => {
      expect(nativeSpelling('Z:/work/src/Program.cs', 'win32')).toBe('Z:\\work\\src\\Program.cs');
      expect(nativeSpelling('', 'win32')).toBe('');
    });

    it('reads environment variables whatever the case of their name, the last spelling winning', () => {
      const env = { Path: 'C:\\Windows', DOTNET_ROOT: 'C:\\dotnet', PATH: 'C:\\tools' };
      expect(envValue(env, 'PATH', 'win32')).toBe('C:\\tools');
      expect(envValue({ Path: 'C:\\Windows' }, 'PATH', 'win32')).toBe('C:\\Windows');
      expect(envValue(env, 'dotnet_root', 'win32')).toBe('C:\\dotnet');
    });
  });

  describe('on Linux', () => {
    it('compares paths as they are', () => {
      expect(samePath('/src/App.cs', '/src/app.cs', 'linux')).toBe(false);
      expect(samePath('/src/app.cs', '/src/app.cs', 'linux')).toBe(true);
      expect(nativeSpelling('C:\\src\\a.cs', 'linux')).toBe('C:\\src\\a.cs');
      expect(envValue({ Path: '/bin' }, 'PATH', 'linux')).toBeUndefined();
    });
  });
});
