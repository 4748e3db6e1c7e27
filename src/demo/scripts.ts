/**
 * The demo's scripted sessions, one per runtime: the calls an agent would make, in order.
 * Samples live in the package's samples/ folder.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { markerLine } from './markers.js';

export interface DemoStep {
  note: string;
  tool: string;
  args: Record<string, unknown>;
}

export const SAMPLES_DIR = fileURLToPath(new URL('../../samples/', import.meta.url));

/** The orders sample exists in Python and JavaScript; only the expressions differ. */
function ordersScript(program: string, syntax: { evaluate: string; onlySecondOrder: string }): DemoStep[] {
  const totalLine = markerLine(program, 'DEMO:total');
  const discountLine = markerLine(program, 'DEMO:discount');
  return [
    { note: 'Launch with a breakpoint and wait for the first stop', tool: 'session_launch', args: { program, breakpoints: [{ file: program, line: totalLine }], waitForStop: true } },
    { note: 'Where are we?', tool: 'inspect_stack', args: {} },
    { note: 'Look inside a value by path', tool: 'inspect_variables', args: { path: 'item' } },
    { note: 'Evaluate an expression in the frame', tool: 'inspect_evaluate', args: { expression: syntax.evaluate } },
    { note: 'Step over one line', tool: 'execution_step', args: { kind: 'over' } },
    { note: 'Only stop on the second order', tool: 'breakpoint_remove', args: { all: true } },
    { note: '', tool: 'breakpoint_set', args: { file: program, line: discountLine, condition: syntax.onlySecondOrder } },
    { note: 'Continue to the conditional breakpoint', tool: 'execution_continue', args: {} },
    { note: 'Step into the call', tool: 'execution_step', args: { kind: 'into' } },
    { note: 'Change a value while stopped', tool: 'inspect_set_variable', args: { name: 'percent', value: '50' } },
    { note: 'Run to the end', tool: 'execution_continue', args: {} },
    { note: 'What did it print?', tool: 'session_output', args: {} },
    { note: 'Clean up', tool: 'session_stop', args: {} },
  ];
}

export function pythonScript(): DemoStep[] {
  return ordersScript(`${SAMPLES_DIR}python/orders.py`, { evaluate: 'price * item["qty"]', onlySecondOrder: 'order["id"] == 2' });
}

export function nodeScript(): DemoStep[] {
  return ordersScript(`${SAMPLES_DIR}node/orders.js`, { evaluate: 'price * item.qty', onlySecondOrder: 'order.id === 2' });
}

export function dotnetScript(): DemoStep[] | undefined {
  const program = `${SAMPLES_DIR}dotnet/Orders`;
  const source = `${program}/Checkout.cs`;
  if (!existsSync(source)) return undefined;
  const totalLine = markerLine(source, 'DEMO:total');
  const discountLine = markerLine(source, 'DEMO:discount');
  return [
    { note: 'Build the project (a first build takes a while), launch it with a breakpoint in an async method, wait for the stop', tool: 'session_launch', args: { program, breakpoints: [{ file: source, line: totalLine }], waitForStop: true, timeoutMs: 120_000 } },
    { note: 'Where are we?', tool: 'inspect_stack', args: {} },
    { note: 'A record, its decimals and its list, as C# shows them', tool: 'inspect_variables', args: { path: 'order' } },
    { note: 'Run code in the program: a computed property and a LINQ call', tool: 'inspect_evaluate', args: { expression: 'order.Subtotal' } },
    { note: '', tool: 'inspect_evaluate', args: { expression: 'order.Lines.Count()' } },
    { note: 'Step over one line', tool: 'execution_step', args: { kind: 'over' } },
    { note: 'Only stop on the second order', tool: 'breakpoint_remove', args: { all: true } },
    { note: '', tool: 'breakpoint_set', args: { file: source, line: discountLine, condition: 'order.Id == 2' } },
    { note: 'Continue to the conditional breakpoint', tool: 'execution_continue', args: {} },
    { note: 'Step into the call', tool: 'execution_step', args: { kind: 'into' } },
    { note: 'Change a value while stopped (a decimal)', tool: 'inspect_set_variable', args: { name: 'percent', value: '25' } },
    { note: 'Step out to the caller, which takes the result', tool: 'execution_step', args: { kind: 'out' } },
    { note: 'Stop where an InvalidOperationException is thrown, even though the program catches it', tool: 'breakpoint_exceptions', args: { mode: 'all', typeNames: ['InvalidOperationException'] } },
    { note: 'Continue to the throw', tool: 'execution_continue', args: {} },
    { note: 'Back to stopping on uncaught exceptions only, then run to the end: the program catches this one', tool: 'breakpoint_exceptions', args: { mode: 'uncaught' } },
    { note: '', tool: 'execution_continue', args: {} },
    { note: 'What did it print? (order 2 with the discount set above)', tool: 'session_output', args: {} },
    { note: 'Clean up', tool: 'session_stop', args: {} },
  ];
}
