import { describe, expect, it } from 'vitest';
import { EngineRegistry } from '../../src/core/engineRegistry.js';
import type { EngineFactory } from '../../src/core/engine.js';

const fakeFactory = (language: string): EngineFactory => ({
  language,
  displayName: language,
  extensions: ['.rb'],
  capabilities: { conditionalBreakpoints: false, hitConditionalBreakpoints: false, logPoints: false, functionBreakpoints: false, setVariable: false, pause: false, attach: false, restart: false, continueResumes: 'all threads', exceptionFilters: [] },
  detect: async () => ({ available: true }),
  create: () => {
    throw new Error('not in this test');
  },
});

describe('EngineRegistry', () => {
  it('imports built-in engines by path and others as debugbridge-engine-<language>, once each', async () => {
    const asked: string[] = [];
    const registry = new EngineRegistry(async (specifier) => {
      asked.push(specifier);
      return { engine: fakeFactory(specifier) };
    });
    await registry.load('python');
    await registry.load('python');
    await registry.load('ruby');
    expect(asked).toEqual(['../engines/python/index.js', 'debugbridge-engine-ruby']);
  });

  it('explains a missing external engine with the install command, and retries after a failure', async () => {
    let installed = false;
    const registry = new EngineRegistry(async (specifier) => {
      if (!installed) throw Object.assign(new Error(`Cannot find package '${specifier}'`), { code: 'ERR_MODULE_NOT_FOUND' });
      return { engine: fakeFactory('ruby') };
    });
    await expect(registry.load('ruby')).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE', hint: expect.stringContaining('npm install debugbridge-engine-ruby') });
    installed = true;
    await expect(registry.load('ruby')).resolves.toMatchObject({ language: 'ruby' });
  });

  it('rejects a module without an engine factory and a language name that is not one', async () => {
    const registry = new EngineRegistry(async () => ({ somethingElse: true }));
    await expect(registry.load('ruby')).rejects.toMatchObject({ code: 'ENGINE_UNAVAILABLE' });
    await expect(registry.load('../etc')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });

  it('guesses the language from the extension', async () => {
    const registry = new EngineRegistry(async () => ({}));
    expect(await registry.languageFor('/a/b.py')).toBe('python');
    expect(await registry.languageFor('/a/App.csproj')).toBe('dotnet');
    expect(await registry.languageFor('/a/app.mjs')).toBe('node');
    await expect(registry.languageFor('/a/README')).rejects.toMatchObject({ code: 'INVALID_ARGUMENT' });
  });
});
