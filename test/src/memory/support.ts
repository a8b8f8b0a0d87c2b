/** Shared helpers of the memory tests: a tool context and a run's memory context. */
import type { Message, RunStore, Tool, ToolContext } from 'golem';
import type { MemoryContext } from 'golem/memory';

/** A tool context of a run of `owner` (and `conversationId`). */
export function toolContext(owner?: string, conversationId?: string): ToolContext {
  return {
    deps: undefined,
    signal: new AbortController().signal,
    callId: 'call-1',
    toolName: 'update_working_memory',
    rawArgs: '{}',
    approved: false,
    retry: 0,
    ...(owner !== undefined && { owner }),
    ...(conversationId !== undefined && { conversationId }),
  };
}

/** The memory context of a run. */
export function memoryContext(fields: {
  owner?: string;
  conversationId?: string;
  prompt?: string;
  history?: Message[];
  store?: RunStore;
}): MemoryContext {
  return {
    owner: fields.owner,
    conversationId: fields.conversationId,
    prompt: fields.prompt ?? '',
    history: fields.history ?? [],
    store: fields.store,
    signal: new AbortController().signal,
  };
}

/** Calls `tool` with `args` as the engine does. */
export async function call(tool: Tool, args: unknown, ctx: ToolContext): Promise<string> {
  return tool.execute(args, ctx);
}
