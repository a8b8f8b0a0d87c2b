import type { Tool } from '../core/tool/tool';
import { mcpToolOrigin } from './origin';
import { mcpToolCollisionError } from './tool-errors';

function describeSource(tool: Tool<never>): string {
  const origin = mcpToolOrigin(tool);
  return origin === undefined
    ? 'a local tool'
    : `MCP server "${origin.server}" (tool ${JSON.stringify(origin.toolName)})`;
}

/**
 * Joins local tools and the tools of MCP servers into one list for an agent, refusing any name
 * clash — an MCP tool must never shadow a local tool or another server's tool. Throws
 * a `tool-collision` `ConfigError` naming both sources.
 */
export function mergeTools<Deps = unknown>(
  local: readonly Tool<Deps>[],
  ...mcp: readonly (readonly Tool[])[]
): Tool<Deps>[] {
  const seen = new Map<string, Tool<never>>();
  const merged: Tool<Deps>[] = [];
  for (const tool of [...local, ...mcp.flat()] as Tool<Deps>[]) {
    const previous = seen.get(tool.name);
    if (previous !== undefined) {
      throw mcpToolCollisionError(tool.name, [describeSource(previous), describeSource(tool)]);
    }
    seen.set(tool.name, tool);
    merged.push(tool);
  }
  return merged;
}
