/** The framework drivers, and which one runs a path when the agent does not say. */
import { DebugError } from '../core/errors.js';
import { dotnetDriver } from './dotnet.js';
import { mochaDriver } from './mocha.js';
import { jestDriver, nodeTestDriver, vitestDriver } from './node.js';
import { pytestDriver, unittestDriver } from './python.js';
import { FRAMEWORKS, type FrameworkDriver, type FrameworkName, type TestRequest } from './types.js';

const DRIVERS: FrameworkDriver[] = [pytestDriver, unittestDriver, nodeTestDriver, vitestDriver, jestDriver, mochaDriver, dotnetDriver];

export function driverNamed(name: FrameworkName): FrameworkDriver {
  const driver = DRIVERS.find((d) => d.name === name);
  if (!driver) throw new DebugError('INVALID_ARGUMENT', `Unknown framework "${name}".`, `Use one of: ${FRAMEWORKS.join(', ')}.`);
  return driver;
}

export async function pickDriver(request: TestRequest, framework?: FrameworkName): Promise<FrameworkDriver> {
  if (framework) return driverNamed(framework);
  const scores = await Promise.all(DRIVERS.map(async (d) => ({ driver: d, score: await d.claims(request).catch(() => 0) })));
  const best = scores.filter((s) => s.score > 0).sort((a, b) => b.score - a.score)[0];
  if (!best) {
    throw new DebugError(
      'INVALID_ARGUMENT',
      `No test framework recognised for ${request.path}.`,
      `Give a test file, folder or project, or pass framework: one of ${FRAMEWORKS.join(', ')}.`,
    );
  }
  return best.driver;
}
