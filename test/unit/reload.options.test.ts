import { describe, expect, it } from 'vitest';
import { CrashPolicy } from '../../src/reload/crashPolicy.js';
import { globToRegExp, ignorePredicate } from '../../src/reload/ignore.js';
import { parseReloadArgs, UsageError } from '../../src/reload/options.js';

describe('parseReloadArgs', () => {
  it('reads options, then the server command after --, its arguments untouched', () => {
    expect(parseReloadArgs(['--watch', 'src,lib', '-w', 'x', '--ignore=*.gen.ts', '--debounce', '50', '--build', 'npm run build', '--', 'node', '--inspect', 'a b.js'])).toEqual({
      help: false,
      options: {
        watch: ['src', 'lib', 'x'],
        ignore: ['*.gen.ts'],
        debounceMs: 50,
        build: 'npm run build',
        killTimeoutMs: 3000,
        command: 'node',
        args: ['--inspect', 'a b.js'],
      },
    });
  });

  it('watches the current folder by default, and takes the command without -- too', () => {
    const parsed = parseReloadArgs(['node', 'server.js']);
    expect(parsed.help === false && parsed.options).toMatchObject({ watch: ['.'], command: 'node', args: ['server.js'] });
  });

  it('answers --help, and refuses what it does not understand', () => {
    expect(parseReloadArgs(['--help'])).toEqual({ help: true });
    expect(() => parseReloadArgs(['--frobnicate', '--', 'node'])).toThrow(UsageError);
    expect(() => parseReloadArgs(['--debounce', 'soon', '--', 'node'])).toThrow(/whole number/);
    expect(() => parseReloadArgs(['--watch'])).toThrow(/needs a value/);
    expect(() => parseReloadArgs(['--watch', 'src'])).toThrow(/no server command/);
  });
});

describe('ignorePredicate', () => {
  const ignored = ignorePredicate(['dist/**', '*.gen.ts', '/abs/secret'], '/proj', ['.', '/elsewhere/node_modules/pkg']);

  it('ignores .git, node_modules, logs and editor temp files anywhere', () => {
    for (const path of ['/proj/.git', '/proj/.git/index', '/proj/a/node_modules/x.js', '/proj/server.log', '/proj/src/.a.ts.swp', '/proj/src/a.ts~', '/proj/src/4913', '/proj/src/.#a.ts']) {
      expect(ignored(path), path).toBe(true);
    }
  });

  it('applies the given globs: by segment, relative to the folder, or absolute', () => {
    expect(ignored('/proj/dist')).toBe(true);
    expect(ignored('/proj/dist/cli.js')).toBe(true);
    expect(ignored('/proj/src/dist/cli.js')).toBe(false);
    expect(ignored('/proj/src/x.gen.ts')).toBe(true);
    expect(ignored('/abs/secret')).toBe(true);
    expect(ignored('/proj/src/server.ts')).toBe(false);
    expect(ignored('/proj')).toBe(false);
  });

  it('looks for ignored segments only below the watched paths', () => {
    expect(ignored('/elsewhere/node_modules/pkg')).toBe(false);
    expect(ignored('/elsewhere/node_modules/pkg/index.js')).toBe(false);
    expect(ignored('/elsewhere/node_modules/pkg/.git/HEAD')).toBe(true);
  });

  it('turns globs into anchored expressions', () => {
    expect(globToRegExp('**/*.{ts,js}').test('a/b/c.ts')).toBe(true);
    expect(globToRegExp('**/*.{ts,js}').test('c.js')).toBe(true);
    expect(globToRegExp('src/*.ts').test('src/a/b.ts')).toBe(false);
    expect(globToRegExp('file?.txt').test('file1.txt')).toBe(true);
    expect(globToRegExp('a.b').test('axb')).toBe(false);
  });
});

describe('CrashPolicy', () => {
  it('doubles the delay from 250 ms up to 10 s and gives up at the 5th crash within a minute', () => {
    let now = 0;
    const policy = new CrashPolicy({ firstDelayMs: 250, maxDelayMs: 1000, maxCrashes: 5, windowMs: 60_000 }, () => now);
    expect([1, 2, 3, 4].map(() => policy.recordCrash())).toEqual([
      { restart: true, delayMs: 250 },
      { restart: true, delayMs: 500 },
      { restart: true, delayMs: 1000 },
      { restart: true, delayMs: 1000 },
    ]);
    expect(policy.recordCrash()).toEqual({ restart: false, crashes: 5, windowMs: 60_000 });
    policy.reset();
    expect(policy.recordCrash()).toEqual({ restart: true, delayMs: 250 });
  });

  it('forgets crashes older than the window', () => {
    let now = 0;
    const policy = new CrashPolicy(undefined, () => now);
    policy.recordCrash();
    policy.recordCrash();
    now = 61_000;
    expect(policy.recordCrash()).toEqual({ restart: true, delayMs: 250 });
  });
});
