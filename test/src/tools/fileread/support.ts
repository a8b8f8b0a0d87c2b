import { mkdtemp, realpath } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ModelRetry } from 'golem';
import type { Tool, ToolContext } from 'golem';

/** A tool context for direct `execute` calls. */
export function context(signal: AbortSignal = new AbortController().signal): ToolContext {
  return {
    deps: undefined,
    signal,
    callId: 'call-1',
    toolName: 'read_file',
    rawArgs: '{}',
    approved: false,
    retry: 0,
  };
}

/** Runs the tool and returns what it threw (failing when it did not throw). */
export async function rejection(tool: Tool, args: unknown, ctx = context()): Promise<Error> {
  try {
    await tool.execute(args, ctx);
  } catch (error) {
    return error as Error;
  }
  throw new Error(`expected ${JSON.stringify(args)} to be rejected`);
}

/** A fresh, canonical temporary directory. */
export async function tempDir(prefix: string): Promise<string> {
  return realpath(await mkdtemp(join(tmpdir(), prefix)));
}

/** The reason of a ModelRetry (failing for anything else). */
export function reasonOf(error: unknown): string {
  if (!ModelRetry.is(error)) throw new Error(`expected a ModelRetry, got ${String(error)}`);
  return error.reason;
}
