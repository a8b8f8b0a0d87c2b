import { isRecord } from '../model/guards';
import type { JsonSchema } from '../model/json';
import { SDK_TIMEOUT } from './deadline';
import { toolDefinition, type McpToolDefinition } from './definitions';
import { McpProtocolError } from './errors';
import type { McpSession } from './session';
import { McpToolDefinitionError } from './tool-errors';

/** A hostile server cannot page forever or flood the catalog. */
export const MAX_PAGES = 100;
/** Most tools (and resources, templates, prompts) one listing accepts. */
export const MAX_TOOLS = 1000;

/**
 * Follows a paginated listing (`method`): first request `{}`, then `{ cursor }`, each page under
 * the session's deadline. Stops with a typed error on a repeated cursor or past
 * {@link MAX_PAGES} pages / `maxItems` items.
 */
export async function listAll<T>(
  session: McpSession,
  method: string,
  page: (
    params: { cursor?: string },
    signal: AbortSignal,
  ) => Promise<{ items: T[]; nextCursor?: string | undefined }>,
  maxItems: number = MAX_TOOLS,
): Promise<T[]> {
  const items: T[] = [];
  const cursors = new Set<string>();
  let cursor: string | undefined;
  for (let count = 0; ; count++) {
    if (count === MAX_PAGES)
      throw protocolError(session, method, `${method} went on for more than ${MAX_PAGES} pages`);
    const params = cursor === undefined ? {} : { cursor };
    const result = await session.request(method, (signal) => page(params, signal));
    for (const item of result.items) {
      if (items.length === maxItems)
        throw protocolError(session, method, `${method} returned more than ${maxItems} items`);
      items.push(item);
    }
    cursor = result.nextCursor;
    if (cursor === undefined || cursor === '') return items;
    if (cursors.has(cursor))
      throw protocolError(
        session,
        method,
        `${method} repeated the cursor ${JSON.stringify(cursor)}`,
      );
    cursors.add(cursor);
  }
}

/**
 * Lists every tool of the server (following pagination) and validates each definition: unique
 * names, an object input schema.
 */
export async function listServerTools(
  session: McpSession,
): Promise<Map<string, McpToolDefinition>> {
  const listed = await listAll(session, 'tools/list', async (params, signal) => {
    const result = await session.client.listTools(params, { signal, timeout: SDK_TIMEOUT });
    return { items: result.tools, nextCursor: result.nextCursor };
  });
  const tools = new Map<string, McpToolDefinition>();
  for (const tool of listed) {
    if (tools.has(tool.name)) {
      throw new McpToolDefinitionError(session.name, tool.name, 'the name is listed twice');
    }
    tools.set(tool.name, definitionOf(session, tool));
  }
  return tools;
}

function protocolError(session: McpSession, method: string, message: string): McpProtocolError {
  return new McpProtocolError({ server: session.name, method, message });
}

function definitionOf(
  session: McpSession,
  tool: {
    name: string;
    description?: string;
    inputSchema: unknown;
    execution?: { taskSupport?: 'required' | 'optional' | 'forbidden' } | undefined;
  },
): McpToolDefinition {
  const schema = tool.inputSchema;
  if (!isRecord(schema) || schema.type !== 'object') {
    throw new McpToolDefinitionError(
      session.name,
      tool.name,
      'its input schema is not an object schema',
    );
  }
  try {
    return toolDefinition(
      tool.name,
      tool.description ?? '',
      schema as JsonSchema,
      tool.execution?.taskSupport,
    );
  } catch (cause) {
    throw new McpToolDefinitionError(
      session.name,
      tool.name,
      `its input schema cannot be used (${(cause as Error).message})`,
    );
  }
}
