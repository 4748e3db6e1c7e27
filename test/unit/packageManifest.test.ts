/**
 * package.json as npm reads it: no script runs by surprise as another's pre/post hook, nothing needed
 * only to build the addon from source is a runtime dependency, and what the install script runs ships.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const manifest = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  files: string[];
};

describe('package.json', () => {
  it('has no script that npm would run as a hook of another (e.g. "prebuild" before "build")', () => {
    const names = Object.keys(manifest.scripts);
    const hooks = names.filter((name) => {
      const m = /^(pre|post)(.+)$/.exec(name);
      return m !== null && names.includes(m[2]);
    });
    expect(hooks).toEqual([]);
  });

  it('needs no build tool at run time', () => {
    const buildOnly = ['cmake-js', 'node-addon-api', 'node-api-headers', 'prebuildify', 'typescript', 'node-gyp'];
    expect(Object.keys(manifest.dependencies).filter((d) => buildOnly.includes(d))).toEqual([]);
  });

  it('ships the files its install script runs', () => {
    const scripts = [...manifest.scripts.install.matchAll(/node (\S+\.mjs)/g)].map((m) => m[1]);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) expect(manifest.files).toContain(script);
  });
});
