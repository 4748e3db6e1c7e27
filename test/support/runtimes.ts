/**
 * Tests that need a runtime call `requireRuntime`: outside CI a missing runtime skips the test with
 * the reason; under CI=true it is a failure, never a skip.
 */
import { execFileSync } from 'node:child_process';

export const inCI = process.env.CI === 'true' || process.env.CI === '1';

export function hasCommand(cmd: string, args: string[] = ['--version']): boolean {
  try {
    execFileSync(cmd, args, { stdio: 'ignore', timeout: 20_000 });
    return true;
  } catch {
    return false;
  }
}

/** Returns true when the runtime is there; throws under CI when it is not. */
export function requireRuntime(name: string, available: boolean): boolean {
  if (available) return true;
  if (inCI) throw new Error(`${name} is required in CI but is not available on this machine`);
  return false;
}
