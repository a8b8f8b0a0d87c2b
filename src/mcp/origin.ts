import type { Tool } from '../core/tool/tool';

/** Where a bridged tool comes from. */
export interface McpToolOrigin {
  /** The client's name. */
  readonly server: string;
  /** The server's name for the tool (without prefix). */
  readonly toolName: string;
}

const origins = new WeakMap<Tool<never>, McpToolOrigin>();

/** Records where a bridged tool comes from. Internal. */
export function recordOrigin(tool: Tool<never>, origin: McpToolOrigin): void {
  origins.set(tool, origin);
}

/** The MCP origin of a tool built by `client.tools()`, or undefined for any other tool. */
export function mcpToolOrigin(tool: Tool<never>): McpToolOrigin | undefined {
  return origins.get(tool);
}
