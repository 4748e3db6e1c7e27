/**
 * .NET Edit and Continue through the engine (no MCP): Roslyn's deltas from the server's worker,
 * applied through ICorDebug to a program stopped in the method being fixed (the plain fix, continued,
 * is the MCP suite's first case: e2e/dotnet-liveedit.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/core/engine.js';
import { DebugError } from '../../src/core/errors.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildFixture } from '../fixtures/dotnet/fixtures.js';
import { buildEditableFixture, type EditableFixture } from '../support/liveEditFixture.js';
import { requireRuntime } from '../support/runtimes.js';
import { createEngine, launchConfig, type RecordingContext } from './dotnetEngineHarness.js';

const dotnet = findDotnet();
const available = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

describe.skipIf(!available)('dotnet live edit (integration)', () => {
  let fixture: EditableFixture;
  const engines: Engine[] = [];
  const children: ChildProcess[] = [];

  beforeAll(() => {
    fixture = buildEditableFixture('liveedit', dotnet!);
  }, 300_000);
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.dispose();
    for (const c of children.splice(0)) c.kill('SIGKILL');
    fixture.restore();
  });
  afterAll(() => fixture?.remove());

  function start(): { engine: Engine; context: RecordingContext } {
    const created = createEngine();
    engines.push(created.engine);
    return created;
  }

  it('a step after the apply runs the new code', async () => {
    const { engine, context } = start();
    await engine.launch(launchConfig(fixture.dll, { breakpoints: [{ id: 1, file: fixture.file('Pricing.cs'), line: fixture.line('Pricing.cs', 'add') }] }));
    const stop = await context.waitFor('stopped');
    fixture.edit('Pricing.cs', 'total += item.UnitPrice;', 'total += item.UnitPrice * item.Quantity;');
    expect((await engine.applyChanges!({})).changes[0]?.status).toBe('applied');
    await engine.step(stop.threadId, 'over');
    const stepped = await context.waitFor('stopped', (e) => e.reason === 'step');
    const [top] = (await engine.stackTrace(stepped.threadId, 0, 1)).frames;
    expect(top!.line).toBe(fixture.line('Pricing.cs', 'add') + 1);
    const total = await engine.evaluate('total', top!.id, 'watch');
    expect(total.value).toBe('1.00');
  }, 300_000);

  it('says Edit and Continue is unavailable in an attached process', async () => {
    const child = spawn(dotnet!, [buildFixture('waiter'), join(tmpdir(), 'dbb-liveedit-never-released')], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    await new Promise<void>((resolve) => child.stdout!.on('data', (d: Buffer) => d.toString().includes('ready') && resolve()));
    const { engine } = start();
    await engine.attach({ pid: child.pid!, breakpoints: [], functionBreakpoints: [], exceptions: { filters: [] }, options: {} });
    const error = await engine.applyChanges!({}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DebugError);
    expect((error as DebugError).code).toBe('UNSUPPORTED');
    expect((error as DebugError).message).toContain('not available in an attached process');
  }, 120_000);

  it('adds a type, a method and a lambda the edited method uses', async () => {
    const { engine, context } = start();
    await engine.launch(launchConfig(fixture.dll, { breakpoints: [{ id: 1, file: fixture.file('Program.cs'), line: fixture.line('Program.cs', 'printed') }] }));
    const stop = await context.waitFor('stopped');
    fixture.edit('Pricing.cs', 'public record Cart(', 'public record Receipt(decimal Total, int Lines);\n\npublic record Cart(');
    fixture.edit(
      'Pricing.cs',
      `        decimal total = 0;
        foreach (var item in cart.Items)
        {
            total += item.UnitPrice; // BP:add
        }
        return total; // BP:return
    }`,
      `        var receipt = Summarize(cart);
        return receipt.Total;
    }

    static Receipt Summarize(Cart cart) => new(cart.Items.Sum(i => i.UnitPrice * i.Quantity), cart.Items.Count);`,
    );
    const result = await engine.applyChanges!({});
    expect(result.changes[0], JSON.stringify(result)).toMatchObject({ status: 'applied' });
    expect(result.changes[0]!.items).toEqual(expect.arrayContaining(['LiveEdit.Pricing.TotalAsync (body)', 'new method LiveEdit.Pricing.Summarize']));
    await engine.setBreakpoints(fixture.file('Program.cs'), []);
    await engine.continue(stop.threadId);
    await context.waitFor('exited', () => true, 60_000);
    expect(context.output('stdout')).toContain('ada: 1.75'); // computed before the edit
    expect(context.output('stdout')).toContain('bob: 3.00');
    expect(context.output('stdout')).toContain('cy: 4.00');
  }, 300_000);
});
