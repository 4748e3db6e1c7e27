import { describe, expect, it } from 'vitest';
import { exceptionAutopsy } from '../../src/core/exceptionAutopsy.js';
import type { FrameInfo } from '../../src/core/types.js';
import { parseStackTrace } from '../../src/engines/dotnet/host/asyncExceptionPath.js';

const trace = [
  '   at Shipping.RateCard.DistanceAsync(String city) in /src/shipping/RateCard.cs:line 14',
  '   at System.Runtime.CompilerServices.TaskAwaiter.ThrowForNonSuccess(Task task)',
  '   at System.Runtime.CompilerServices.TaskAwaiter.HandleNonSuccessAndDebuggerNotification(Task task, ConfigureAwaitOptions options)',
  '--- End of stack trace from previous location ---',
  '   at Shipping.QuoteService.QuoteAsync(String city) in /src/shipping/QuoteService.cs:line 16',
  '   at Shipping.Program.Main(String[] args) in /src/shipping/Program.cs:line 26',
].join('\n');

describe('a .NET exception\'s way through awaits (its stack trace)', () => {
  it('keeps the frames with a source line, each run of the others as one external frame', () => {
    expect(parseStackTrace(trace).map((f) => [f.name, f.file, f.line])).toEqual([
      ['Shipping.RateCard.DistanceAsync', '/src/shipping/RateCard.cs', 14],
      ['[External Code]', undefined, 0],
      ['Shipping.QuoteService.QuoteAsync', '/src/shipping/QuoteService.cs', 16],
      ['Shipping.Program.Main', '/src/shipping/Program.cs', 26],
    ]);
  });

  it('gives the autopsy its stack: the way it came, then the thread\'s awaiting callers, the path itself left out', () => {
    const caller: FrameInfo = { id: 3, name: 'Shipping.Host.RunAsync', file: '/src/shipping/Host.cs', line: 8, column: 9, async: true };
    const reversed: FrameInfo[] = [{ id: 1, name: 'Shipping.Program.Main', file: '/src/shipping/Program.cs', line: 26, column: 17 }, { id: 2, name: 'Shipping.RateCard.DistanceAsync', file: '/src/shipping/RateCard.cs', line: 15, column: 9 }, caller];
    const autopsy = exceptionAutopsy({ type: 'Shipping.UnknownCityException', path: parseStackTrace(trace) }, { frames: reversed }, { name: 'Shipping.Program.Main', file: '/src/shipping/Program.cs', line: 26, column: 17 });
    expect(autopsy.frames?.filter((e) => e.file).map((e) => [e.name, e.line, !!e.async])).toEqual([
      ['Shipping.RateCard.DistanceAsync', 14, false],
      ['Shipping.QuoteService.QuoteAsync', 16, false],
      ['Shipping.Program.Main', 26, false],
      ['Shipping.Host.RunAsync', 8, true],
    ]);
    expect(autopsy).not.toHaveProperty('path');
  });
});
