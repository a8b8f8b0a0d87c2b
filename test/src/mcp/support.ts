/** Shared helpers of the MCP suites: server launch configs, a tool context, error capture. */
import { join } from 'node:path';
import type { Tool, ToolContext } from 'golem';
import type { McpStdioTransport } from 'golem/mcp';

/** Folder of the test servers. */
export const SERVERS = join(__dirname, 'servers');

/** A stdio transport that runs `servers/<file>` with this Node binary. */
export function stdioServer(file: string, ...args: string[]): McpStdioTransport {
  return { kind: 'stdio', command: process.execPath, args: [join(SERVERS, file), ...args] };
}

/** A tool context with a live (or the given) signal. */
export function toolContext(signal: AbortSignal = new AbortController().signal): ToolContext {
  return {
    deps: undefined,
    signal,
    callId: 'call-1',
    toolName: 'mcp',
    rawArgs: '{}',
    approved: false,
    retry: 0,
  };
}

/** Runs `tool` with `args` and a fresh context. */
export async function call(tool: Tool, args: unknown, signal?: AbortSignal): Promise<string> {
  return tool.execute(args, toolContext(signal));
}

/** The tool named `name` among `tools` (fails the test when absent). */
export function named(tools: readonly Tool[], name: string): Tool {
  const tool = tools.find((t) => t.name === name);
  if (tool === undefined) throw new Error(`no tool named ${name}`);
  return tool;
}

/** Captures what `run` throws (fails the test when it does not throw). */
export async function caught(run: () => unknown): Promise<Error> {
  try {
    await run();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error, but nothing was thrown');
}

/** Captures what `run` throws and checks it with a brand guard such as `ModelRetry.is`. */
export async function caughtAs<T>(
  is: (value: unknown) => value is T,
  run: () => unknown,
): Promise<T> {
  const error = await caught(run);
  if (!is(error)) throw new Error(`unexpected error: ${String(error)}`, { cause: error });
  return error;
}

/** Whether process `pid` is still running (signal 0 probes without signalling). */
export function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
