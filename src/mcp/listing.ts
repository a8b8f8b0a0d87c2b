import { isRecord } from '../model/guards';
import type { JsonSchema } from '../model/json';
import { toolDefinition, type McpToolDefinition } from './definitions';
import { McpProtocolError } from './errors';
import { McpToolDefinitionError } from './tool-errors';
import type { McpClient } from './client';
import { Deadline, SDK_TIMEOUT } from './deadline';

/** A hostile server cannot page forever or flood the catalog. */
export const MAX_PAGES = 100;
export const MAX_TOOLS = 1000;

/**
 * Lists every tool of the server, following `nextCursor` (first request `{}`, then `{ cursor }`),
 * and validates each definition: unique names, an object input schema. Stops with a typed error
 * on a repeated cursor or past {@link MAX_PAGES} pages / {@link MAX_TOOLS} tools.
 */
export async function listServerTools(
  client: McpClient,
  timeout: number,
): Promise<Map<string, McpToolDefinition>> {
  const tools = new Map<string, McpToolDefinition>();
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let page = 0; ; page++) {
    if (page === MAX_PAGES)
      throw protocolError(client, `tools/list went on for more than ${MAX_PAGES} pages`);
    const deadline = new Deadline(
      undefined,
      timeout,
      `mcp: server "${client.name}" did not answer tools/list within ${timeout} ms`,
    );
    let result: Awaited<ReturnType<McpClient['sdk']['listTools']>>;
    try {
      result = await client.sdk.listTools(cursor === undefined ? {} : { cursor }, {
        signal: deadline.signal,
        timeout: SDK_TIMEOUT,
      });
    } catch (error) {
      throw deadline.settle() ?? error;
    } finally {
      deadline.clear();
    }
    for (const tool of result.tools) {
      if (tools.has(tool.name)) {
        throw new McpToolDefinitionError(client.name, tool.name, 'the name is listed twice');
      }
      if (tools.size === MAX_TOOLS)
        throw protocolError(client, `tools/list returned more than ${MAX_TOOLS} tools`);
      tools.set(tool.name, definitionOf(client, tool));
    }
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === '') return tools;
    if (cursors.has(cursor))
      throw protocolError(client, `tools/list repeated the cursor ${JSON.stringify(cursor)}`);
    cursors.add(cursor);
  }
}

function protocolError(client: McpClient, message: string): McpProtocolError {
  return new McpProtocolError({ server: client.name, method: 'tools/list', message });
}

function definitionOf(
  client: McpClient,
  tool: { name: string; description?: string; inputSchema: unknown },
): McpToolDefinition {
  const schema = tool.inputSchema;
  if (!isRecord(schema) || schema.type !== 'object') {
    throw new McpToolDefinitionError(
      client.name,
      tool.name,
      'its input schema is not an object schema',
    );
  }
  try {
    return toolDefinition(tool.name, tool.description ?? '', schema as JsonSchema);
  } catch (cause) {
    throw new McpToolDefinitionError(
      client.name,
      tool.name,
      `its input schema cannot be used (${(cause as Error).message})`,
    );
  }
}
