/**
 * The typed surface of the Debug Adapter Protocol: which arguments each request takes, what its
 * response body is, and what each event carries. Shapes come from @vscode/debugprotocol.
 */
import type { DebugProtocol as P } from '@vscode/debugprotocol';

/** Adapters accept their own launch/attach keys (e.g. debugpy's `justMyCode`). */
type OpenArguments<T> = T & Record<string, unknown>;

export interface DapRequestMap {
  initialize: [P.InitializeRequestArguments, P.InitializeResponse];
  configurationDone: [P.ConfigurationDoneArguments | undefined, P.ConfigurationDoneResponse];
  launch: [OpenArguments<P.LaunchRequestArguments>, P.LaunchResponse];
  attach: [OpenArguments<P.AttachRequestArguments>, P.AttachResponse];
  restart: [P.RestartArguments | undefined, P.RestartResponse];
  disconnect: [P.DisconnectArguments | undefined, P.DisconnectResponse];
  terminate: [P.TerminateArguments | undefined, P.TerminateResponse];
  setBreakpoints: [P.SetBreakpointsArguments, P.SetBreakpointsResponse];
  setFunctionBreakpoints: [P.SetFunctionBreakpointsArguments, P.SetFunctionBreakpointsResponse];
  setExceptionBreakpoints: [P.SetExceptionBreakpointsArguments, P.SetExceptionBreakpointsResponse];
  breakpointLocations: [P.BreakpointLocationsArguments, P.BreakpointLocationsResponse];
  continue: [P.ContinueArguments, P.ContinueResponse];
  next: [P.NextArguments, P.NextResponse];
  stepIn: [P.StepInArguments, P.StepInResponse];
  stepOut: [P.StepOutArguments, P.StepOutResponse];
  pause: [P.PauseArguments, P.PauseResponse];
  goto: [P.GotoArguments, P.GotoResponse];
  gotoTargets: [P.GotoTargetsArguments, P.GotoTargetsResponse];
  threads: [undefined, P.ThreadsResponse];
  stackTrace: [P.StackTraceArguments, P.StackTraceResponse];
  scopes: [P.ScopesArguments, P.ScopesResponse];
  variables: [P.VariablesArguments, P.VariablesResponse];
  setVariable: [P.SetVariableArguments, P.SetVariableResponse];
  setExpression: [P.SetExpressionArguments, P.SetExpressionResponse];
  evaluate: [P.EvaluateArguments, P.EvaluateResponse];
  exceptionInfo: [P.ExceptionInfoArguments, P.ExceptionInfoResponse];
  source: [P.SourceArguments, P.SourceResponse];
  modules: [P.ModulesArguments, P.ModulesResponse];
  loadedSources: [P.LoadedSourcesArguments | undefined, P.LoadedSourcesResponse];
  completions: [P.CompletionsArguments, P.CompletionsResponse];
}

export type DapCommand = keyof DapRequestMap;
export type DapArguments<C extends DapCommand> = DapRequestMap[C][0];
export type DapResponseBody<C extends DapCommand> = DapRequestMap[C][1]['body'];

export interface DapEventMap {
  initialized: undefined;
  stopped: P.StoppedEvent['body'];
  continued: P.ContinuedEvent['body'];
  exited: P.ExitedEvent['body'];
  terminated: P.TerminatedEvent['body'];
  thread: P.ThreadEvent['body'];
  output: P.OutputEvent['body'];
  breakpoint: P.BreakpointEvent['body'];
  module: P.ModuleEvent['body'];
  loadedSource: P.LoadedSourceEvent['body'];
  process: P.ProcessEvent['body'];
  capabilities: P.CapabilitiesEvent['body'];
  invalidated: P.InvalidatedEvent['body'];
}

export type DapEventName = keyof DapEventMap;

/** Requests an adapter may send to its client. */
export interface DapReverseRequestMap {
  runInTerminal: [P.RunInTerminalRequestArguments, P.RunInTerminalResponse['body']];
  startDebugging: [P.StartDebuggingRequestArguments, undefined];
}

export type DapReverseCommand = keyof DapReverseRequestMap;

export type { P as DebugProtocol };
