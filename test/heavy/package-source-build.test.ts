/**
 * The complete source build of the installed package (`npm run test:heavy`): on a platform with no
 * prebuild, `npm install -g` builds the addon from source when cmake and a compiler are there,
 * fetching the build tools only for that build, and .NET debugging works. About 1.5 CPU-minutes of
 * C++ (91–135 s at load 10–15 on 2 cores), too much for `npm test`, which checks the same install
 * path up to a build that fails (test/e2e/package.test.ts). It builds in a temporary prefix, never
 * in the clone's own build/.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { killRunningCommands } from '../support/commands.js';
import { BUILD_TOOLS, doctor, installInto, pack, SOURCE_BUILD_BUDGET_MS, withoutPrebuilds } from '../support/npmPackage.js';
import { hasCommand, requireRuntime } from '../support/runtimes.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** When the clone's build/ folder last changed (undefined: there is none). */
function cloneBuildStamp(): number | undefined {
  try {
    return statSync(join(root, 'build')).mtimeMs;
  } catch {
    return undefined;
  }
}

describe.runIf(process.platform === 'linux')('the npm package on a platform with no prebuild', () => {
  const work = mkdtempSync(join(tmpdir(), 'dbb-source-build-'));
  afterAll(() => {
    killRunningCommands();
    rmSync(work, { recursive: true, force: true });
  });

  it(
    'builds the addon from source when cmake and a compiler are there, fetching the build tools only for that',
    async () => {
      if (!requireRuntime('cmake and a C++ compiler', hasCommand('cmake') && hasCommand('c++'))) return;
      const before = cloneBuildStamp();
      const bare = withoutPrebuilds(await pack(work), work);
      const prefix = join(work, 'prefix');
      const { pkg, log } = await installInto(prefix, bare, { budgetMs: SOURCE_BUILD_BUDGET_MS });
      expect(log).toMatch(/fetching the addon's build tools \(cmake-js@/);
      expect(readdirSync(join(pkg, 'build', 'Release')).filter((f) => f.endsWith('.node'))).toHaveLength(1);
      expect(cloneBuildStamp()).toBe(before);
      expect(readdirSync(pkg)).not.toContain('build-tools');
      expect(readdirSync(join(pkg, 'node_modules')).filter((d) => BUILD_TOOLS.includes(d))).toEqual([]);
      if (requireRuntime('dotnet', findDotnet() !== undefined)) expect((await doctor(prefix)).out).toMatch(/ok {7}dotnet/);
    },
    SOURCE_BUILD_BUDGET_MS + 300_000,
  );
});
