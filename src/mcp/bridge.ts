import { throwIfCancelled } from '../model/cancellation';
import { ModelRetry } from '../model/errors';
import { isRecord } from '../model/guards';
import { defineTool } from '../tool/define-tool';
import { ToolDefinitionError } from '../tool/errors';
import type { Tool } from '../tool/tool';
import type { McpClient } from './client';
import { Deadline, SDK_TIMEOUT, untilAborted } from './deadline';
import type { McpToolDefinition } from './definitions';
import type { ResolvedToolsOptions } from './options';
import { capText, renderContent } from './result';
import { McpToolChangedError, McpToolDefinitionError } from './tool-errors';
import { typedError } from './map-error';
import { redactText } from './secrets';

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Where a bridged tool comes from. */
export interface McpToolOrigin {
  /** The client's name. */
  readonly server: string;
  /** The server's name for the tool (without prefix). */
  readonly toolName: string;
}

const origins = new WeakMap<Tool<never>, McpToolOrigin>();

/** The MCP origin of a tool built by `client.tools()`, or undefined for any other tool. */
export function mcpToolOrigin(tool: Tool<never>): McpToolOrigin | undefined {
  return origins.get(tool);
}

/**
 * One server tool as an agent tool: name (`<prefix>__<name>` with a prefix), the server's
 * description and input schema, and an `execute` that calls `tools/call` with the parsed
 * arguments and the call's signal.
 */
export function bridgeTool(
  client: McpClient,
  definition: McpToolDefinition,
  options: ResolvedToolsOptions,
): Tool {
  const name =
    options.prefix === undefined ? definition.name : `${options.prefix}__${definition.name}`;
  if (!NAME.test(name)) {
    throw new McpToolDefinitionError(
      client.name,
      definition.name,
      `${JSON.stringify(name)} is not a portable tool name (1–64 letters, digits, "_" or "-"); leave it out with { exclude: [${JSON.stringify(definition.name)}] }${options.prefix === undefined ? '' : ' or use a shorter prefix'}`,
    );
  }
  let tool: Tool;
  try {
    tool = defineTool({
      name,
      description: definition.description,
      schema: definition.inputSchema,
      execute: (args, ctx) => callTool(client, definition, name, options, args, ctx.signal),
    });
  } catch (error) {
    if (!ToolDefinitionError.is(error)) throw error;
    throw new McpToolDefinitionError(client.name, definition.name, error.message);
  }
  origins.set(tool, { server: client.name, toolName: definition.name });
  return tool;
}

async function callTool(
  client: McpClient,
  definition: McpToolDefinition,
  name: string,
  options: ResolvedToolsOptions,
  args: unknown,
  signal: AbortSignal,
): Promise<string> {
  throwIfCancelled(signal);
  if (!isRecord(args)) {
    throw new ModelRetry(
      `the arguments must be a JSON object matching the input schema of ${name}`,
    );
  }
  client.ensureOpen('tools/call');
  // A pending list change is fetched first; the call's signal still cancels the wait.
  const current = (await untilAborted(client.current(), signal)).get(definition.name);
  if (current?.hash !== definition.hash) {
    throw new McpToolChangedError(
      client.name,
      definition.name,
      current === undefined ? 'removed' : 'changed',
    );
  }
  const deadline = new Deadline(
    signal,
    options.timeout,
    `mcp: server "${client.name}" did not answer ${name} within ${options.timeout} ms`,
  );
  let result: Awaited<ReturnType<McpClient['sdk']['callTool']>>;
  try {
    result = await client.sdk.callTool({ name: definition.name, arguments: args }, undefined, {
      signal: deadline.signal,
      timeout: SDK_TIMEOUT,
    });
  } catch (error) {
    throw deadline.settle() ?? typedError(client.errors, 'tools/call', error);
  } finally {
    deadline.clear();
  }
  const text = capText(renderContent(result), options.maxResultBytes);
  if (result.isError === true) {
    const shown = redactText(text, client.errors.secrets);
    throw new ModelRetry(
      shown.trim() === '' ? `tool ${name} failed` : `tool ${name} failed: ${shown}`,
    );
  }
  return text;
}
