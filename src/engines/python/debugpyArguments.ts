/** What we ask of debugpy when we initialize, launch and attach. */
import type { AttachConfig, LaunchConfig } from '../../core/types.js';
import type { DapArguments } from '../../dap/dapProtocol.js';
import { moduleOfProgram } from '../../core/moduleProgram.js';

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

/** What a launch of a program file needs; a ready debuggee launches its own launcher file this way. */
export type FileLaunch = Pick<LaunchConfig, 'program' | 'args' | 'cwd' | 'env' | 'stopOnEntry' | 'options'>;

export function launchArguments(launch: FileLaunch, executable: string): DapArguments<'launch'> {
  return {
    ...common(launch.options),
    ...moduleOrProgram(launch.program),
    args: launch.args,
    cwd: launch.cwd,
    env: launch.env,
    python: [executable],
    // Output comes back as `output` events, never through a terminal.
    console: 'internalConsole',
    redirectOutput: true,
    stopOnEntry: launch.stopOnEntry,
  };
}

/** debugpy runs `-m package.module` as python does (sys.path[0] the working folder), a file as a script. */
function moduleOrProgram(program: string): { module: string } | { program: string } {
  const module = moduleOfProgram(program);
  return module ? { module } : { program };
}

export function attachArguments(config: AttachConfig): DapArguments<'attach'> {
  return common(config.options);
}
