/** What a session runs: the program, how it is started (launch or attach) and the engine's options. */
import type { PathMapping } from './pathMap.js';
import type { ExceptionBreakpointConfig } from './types.js';

export interface SessionConfig {
  language: string;
  program: string;
  args: string[];
  cwd: string;
  env: Record<string, string>;
  stopOnEntry: boolean;
  exceptions: ExceptionBreakpointConfig;
  options: Record<string, unknown>;
  /** Set for attach sessions. */
  attach?: { pid?: number; host?: string; port?: number };
  /** The target it runs on (a configured target's name); paths here are local ones. */
  target?: string;
  /** Where the program sees its files, when not where they are here (a port attach to a container or another host). */
  pathMappings?: PathMapping[];
}
