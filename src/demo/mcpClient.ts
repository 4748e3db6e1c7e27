/**
 * A real MCP client over stdio for a debugbridge server process: used by `debugbridge demo` and by
 * the end-to-end tests. Each call answers the model's text, the structured content and isError.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { getDefaultEnvironment, StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { LoggingMessageNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { fileURLToPath } from 'node:url';

export interface ToolCallResult<T = Record<string, unknown>> {
  text: string;
  structured: T;
  isError: boolean;
}

export interface ServerOptions {
  /** Extra environment for the server (merged over the default safe set and this process's env). */
  env?: Record<string, string>;
  /** Command to run instead of `node dist/cli.cjs`. */
  command?: string;
  args?: string[];
  cwd?: string;
  stderr?: 'inherit' | 'pipe' | 'ignore';
  /** Ask for the tool list once connected, as every MCP client does before its first call (default). */
  listTools?: boolean;
}

/** dist/cli.cjs, the command's entry point, also when this file runs from its TypeScript source (in tests). */
export const CLI_PATH = fileURLToPath(new URL(import.meta.url.endsWith('.ts') ? '../../dist/cli.cjs' : '../cli.cjs', import.meta.url));

export class McpTestClient<T extends Transport = StdioClientTransport> {
  readonly logs: LoggingMessageNotification['params'][] = [];
  private constructor(
    readonly client: Client,
    readonly transport: T,
  ) {}

  static start(options: ServerOptions = {}): Promise<McpTestClient> {
    const env = { ...getDefaultEnvironment(), ...(process.env as Record<string, string>), ...options.env };
    const transport = new StdioClientTransport({
      command: options.command ?? process.execPath,
      args: options.args ?? [CLI_PATH],
      env,
      cwd: options.cwd,
      stderr: options.stderr ?? 'pipe',
    });
    return McpTestClient.connect(transport, options);
  }

  /** A client over any transport (the Windows test bed reaches a server under Wine through a socket). */
  static async connect<T extends Transport>(transport: T, { listTools = true }: Pick<ServerOptions, 'listTools'> = {}): Promise<McpTestClient<T>> {
    const client = new Client({ name: 'debugbridge-client', version: '1.0.0' });
    const wrapper = new McpTestClient(client, transport);
    client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
      wrapper.logs.push(n.params);
    });
    await client.connect(transport);
    // As every MCP client does before its first call (the server readies runtimes only after it).
    if (listTools) await client.listTools();
    return wrapper;
  }

  /** The server's process id (for process-tree checks). */
  get pid(): number | undefined {
    return this.transport instanceof StdioClientTransport ? (this.transport.pid ?? undefined) : undefined;
  }

  async call<T = Record<string, unknown>>(name: string, args: Record<string, unknown> = {}, options: { timeoutMs?: number; onProgress?: (message?: string) => void } = {}): Promise<ToolCallResult<T>> {
    const result = await this.client.callTool({ name, arguments: args }, undefined, {
      timeout: options.timeoutMs ?? 120_000,
      onprogress: options.onProgress ? (p) => options.onProgress!(p.message) : undefined,
      resetTimeoutOnProgress: true,
    });
    const content = (result.content ?? []) as { type: string; text?: string }[];
    const text = content
      .filter((c) => c.type === 'text')
      .map((c) => c.text ?? '')
      .join('\n');
    return { text, structured: (result.structuredContent ?? {}) as T, isError: result.isError === true };
  }

  /** Ends every session still running or stopped (tests call it between cases). */
  async stopActiveSessions(): Promise<void> {
    const { structured } = await this.call<{ sessions: { sessionId: string; state: string }[] }>('session_list');
    for (const s of structured.sessions) {
      if (['running', 'stopped', 'initializing'].includes(s.state)) await this.call('session_stop', { sessionId: s.sessionId });
    }
  }

  async close(): Promise<void> {
    await this.client.close().catch(() => undefined);
  }
}
