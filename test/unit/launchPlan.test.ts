import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { planLaunch, typeStrippingFlags } from '../../src/engines/node/launchPlan.js';

/** A TypeScript file where no runner can be loaded from. */
function loneProgram(name: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'dbb-plan-')), name);
  writeFileSync(file, 'const n: number = 1;\n');
  return file;
}

const runtime = (version: string) => ({ executable: '/usr/bin/node', version });

describe('launch plan', () => {
  it('runs JavaScript as it is', () => {
    expect(planLaunch('/x/app.js', runtime('v20.20.2'), {})).toEqual({ entry: '/x/app.js', runtimeArgs: [], typesStrippedInPlace: false });
  });

  it("knows which Node.js versions strip types, and with which flag", () => {
    expect(typeStrippingFlags('v20.20.2')).toBeUndefined();
    expect(typeStrippingFlags('v22.5.1')).toBeUndefined();
    expect(typeStrippingFlags('v22.6.0')).toEqual(['--experimental-strip-types']);
    expect(typeStrippingFlags('v23.5.0')).toEqual(['--experimental-strip-types']);
    expect(typeStrippingFlags('v23.6.0')).toEqual([]);
    expect(typeStrippingFlags('v24.1.0')).toEqual([]);
  });

  it("uses node's own type stripping where the runtime has it and nothing else is installed", () => {
    const program = loneProgram('app.ts');
    expect(planLaunch(program, runtime('v22.12.0'), {})).toEqual({
      entry: program,
      runtimeArgs: ['--experimental-strip-types'],
      typesStrippedInPlace: true,
      runner: 'node',
      note: "Runs with Node.js v22.12.0's own type stripping (--experimental-strip-types): lines are the TypeScript lines.",
    });
    expect(planLaunch(program, runtime('v24.1.0'), {}).runtimeArgs).toEqual([]);
  });

  it('says what was tried and what to install when nothing runs it', () => {
    const program = loneProgram('view.tsx');
    expect(() => planLaunch(program, runtime('v22.12.0'), {})).toThrow(/tsx is not installed.*ts-node is not installed.*does not run \.tsx.*no JavaScript compiled from it/);
    expect(() => planLaunch(program, runtime('v20.20.2'), { tsRunner: 'node' })).toThrow(/Node\.js v20\.20\.2 cannot strip types \(that needs 22\.6 or later\)/);
    expect(() => planLaunch(program, runtime('v20.20.2'), { tsRunner: 'bun' })).toThrow(/tsRunner "bun" is not one of tsx, ts-node, node, compiled/);
  });
});
