/** What we ask of debugpy when we initialize, launch and attach. */
import type { AttachConfig, LaunchConfig } from '../../core/types.js';
import type { DapArguments } from '../../dap/dapProtocol.js';
import type { PythonInterpreter } from './interpreter.js';

/** Dunder attributes and methods are noise in an agent's view of a value; class members stay grouped. */
const VARIABLE_PRESENTATION = { special: 'hide', function: 'hide', class: 'group', protected: 'inline' };

export const INITIALIZE_ARGUMENTS: DapArguments<'initialize'> = {
  clientID: 'debugbridge',
  clientName: 'debugbridge',
  adapterID: 'debugpy',
  linesStartAt1: true,
  columnsStartAt1: true,
  pathFormat: 'path',
  supportsRunInTerminalRequest: false,
  supportsVariableType: true,
  supportsProgressReporting: false,
  supportsStartDebuggingRequest: false,
  locale: 'en',
};

function common(options: Record<string, unknown>) {
  return {
    justMyCode: options.justMyCode !== false,
    showReturnValue: true,
    variablePresentation: VARIABLE_PRESENTATION,
    // Children would need sessions of their own (`startDebugging`), which the core does not run.
    subProcess: false,
  };
}

export function launchArguments(config: LaunchConfig, interpreter: PythonInterpreter): DapArguments<'launch'> {
  return {
    ...common(config.options),
    program: config.program,
    args: config.args,
    cwd: config.cwd,
    env: config.env,
    python: [interpreter.executable],
    // Output comes back as `output` events, never through a terminal.
    console: 'internalConsole',
    redirectOutput: true,
    stopOnEntry: config.stopOnEntry,
  };
}

export function attachArguments(config: AttachConfig): DapArguments<'attach'> {
  return common(config.options);
}
