/**
 * `debugbridge demo dotnet` through the real CLI and MCP server: the .NET sample (an async order
 * checkout with records and decimals) is built, stopped at a breakpoint, read as C# shows it, run
 * code in (a computed property, a LINQ call), stepped into and out of, changed, stopped at a thrown
 * exception and run to its end — the transcript shows each, and the program's own output shows the
 * value the demo set.
 */
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { CLI_PATH } from '../../src/demo/mcpClient.js';
import { findDotnet } from '../../src/engines/dotnet/runtimeEnv.js';
import { requireRuntime } from '../support/runtimes.js';

const run = process.platform === 'linux' && requireRuntime('dotnet', findDotnet() !== undefined);
/** The sample is built from source by the demo's launch: minutes at load on 2 cores. */
const BUDGET_MS = 600_000;

function demo(): Promise<{ status: number | null; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [CLI_PATH, 'demo', 'dotnet'], { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
    child.on('close', (status) => resolve({ status, stdout }));
  });
}

describe.runIf(run)('debugbridge demo dotnet', () => {
  it(
    'shows a breakpoint, C# values, func-evals, steps, a set value, an exception stop and the exit',
    async () => {
      const { status, stdout } = await demo();
      expect(stdout).toMatch(/Demo finished/);
      expect(status).toBe(0);
      const expected = [
        /Stopped at breakpoint #1 in Shop\.Checkout\.ProcessAsync \(Checkout\.cs:\d+\)/,
        /order = Order #1 for ACME \(2 lines\) \(Shop\.Order\)/,
        /line = Line \{ Product = bolt, Price = 2\.50, Quantity = 3 \} \(Shop\.Line\)/,
        /Lines = Count = 2 \(System\.Collections\.Generic\.List<Shop\.Line>\)/,
        /order\.Subtotal = 11\.50 \(decimal\)/,
        /order\.Lines\.Count\(\) = 2 \(int\)/,
        /Stopped at breakpoint #2 in Shop\.Checkout\.ProcessAsync/,
        /Stepped to Shop\.Checkout\.ApplyDiscount/,
        /percent = 25 \(decimal\)/,
        /Stepped to Shop\.Checkout\.ProcessAsync/,
        /Stopped on userFirstChance exception System\.InvalidOperationException: coupon EXPIRED is not valid in Shop\.Coupons\.PercentOffAsync/,
        /The program exited with code 0/,
        /order 2: total 20\.00, after discount 15\.00/,
        /order 3 skipped: coupon EXPIRED is not valid/,
      ];
      let from = 0;
      for (const pattern of expected) {
        const match = pattern.exec(stdout.slice(from));
        expect(match, `${pattern} after offset ${from} in:\n${stdout}`).not.toBeNull();
        from += match!.index + match![0].length;
      }
    },
    BUDGET_MS,
  );
});
