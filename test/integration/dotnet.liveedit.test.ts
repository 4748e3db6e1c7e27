/**
 * .NET Edit and Continue through the engine (no MCP): Roslyn's deltas from the server's worker,
 * applied through ICorDebug to a program stopped in the method being fixed.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Engine } from '../../src/core/engine.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { buildEditableFixture, type EditableFixture } from '../support/liveEditFixture.js';
import { requireRuntime } from '../support/runtimes.js';
import { createEngine, launchConfig, type RecordingContext } from './dotnetEngineHarness.js';

const dotnet = findDotnet();
const available = process.platform === 'linux' && requireRuntime('dotnet', dotnet !== undefined);

describe.skipIf(!available)('dotnet live edit (integration)', () => {
  let fixture: EditableFixture;
  const engines: Engine[] = [];

  beforeAll(() => {
    fixture = buildEditableFixture('liveedit', dotnet!);
  }, 300_000);
  afterEach(async () => {
    for (const e of engines.splice(0)) await e.dispose();
    fixture.restore();
  });
  afterAll(() => fixture?.remove());

  function start(): { engine: Engine; context: RecordingContext } {
    const created = createEngine();
    engines.push(created.engine);
    return created;
  }

  it('applies a fix to the method the program is stopped in; continuing runs the new code', async () => {
    const { engine, context } = start();
    await engine.launch(launchConfig(fixture.dll, { breakpoints: [{ id: 1, file: fixture.file('Pricing.cs'), line: fixture.line('Pricing.cs', 'add') }] }));
    const stop = await context.waitFor('stopped');
    fixture.edit('Pricing.cs', 'total += item.UnitPrice;', 'total += item.UnitPrice * item.Quantity;');
    const result = await engine.applyChanges!({});
    expect(result.changes).toEqual([expect.objectContaining({ file: fixture.file('Pricing.cs'), status: 'applied' })]);
    console.log(JSON.stringify(result, null, 1));
    await engine.setBreakpoints(fixture.file('Pricing.cs'), []);
    await engine.continue(stop.threadId);
    await context.waitFor('exited', () => true, 60_000);
    expect(context.output('stdout')).toContain('ada: 4.75');
    expect(context.output('stdout')).toContain('bob: 3.00');
  }, 300_000);
});
