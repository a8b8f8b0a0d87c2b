import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describeError } from '../core/kit/error-base';
import { isRecord } from '../core/kit/guards';
import type { JsonSchema } from '../core/kit/json';
import { SDK_TIMEOUT } from './deadline';
import { toolDefinition, type McpToolDefinition } from './definitions';
import { McpProtocolError } from './errors';
import type { McpSession } from './session';

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

/** One `tools/list`: the usable definitions, and the tools left out with why (name → problem). */
export interface ToolListing {
  readonly definitions: ReadonlyMap<string, McpToolDefinition>;
  readonly rejected: ReadonlyMap<string, string>;
}

/**
 * Lists every tool of the server (following pagination) and checks each definition on its own:
 * the MCP tool shape, a unique name, an object input schema at most 64 levels deep, an output
 * schema that compiles. A definition that fails is left out (with its problem) and the others
 * stay usable: one hostile tool never takes the whole server down.
 */
export async function listServerTools(session: McpSession): Promise<ToolListing> {
  const listed = await listAll(session, 'tools/list', async (params, signal) => {
    // Each page is read loosely and each tool checked alone: the SDK's own listTools refuses a
    // whole page for one malformed tool, and compiles output schemas where one can throw.
    const page = await session.client.request(
      { method: 'tools/list', params },
      session.sdk.PaginatedResultSchema,
      { signal, timeout: SDK_TIMEOUT },
    );
    const tools: unknown = (page as Record<string, unknown>).tools;
    if (!Array.isArray(tools)) {
      throw protocolError(session, 'tools/list', 'tools/list answered without a tools array');
    }
    return { items: tools as unknown[], nextCursor: page.nextCursor };
  });
  const definitions = new Map<string, McpToolDefinition>();
  const rejected = new Map<string, string>();
  const accepted: Tool[] = [];
  listed.forEach((item, i) => {
    const parsed = session.sdk.ToolSchema.safeParse(item);
    if (!parsed.success) {
      const name = isRecord(item) && typeof item.name === 'string' ? item.name : `#${i + 1}`;
      rejected.set(name, `it is not a valid MCP tool definition (${firstIssue(parsed.error)})`);
      definitions.delete(name);
      return;
    }
    const tool = parsed.data;
    if (definitions.has(tool.name) || rejected.has(tool.name)) {
      rejected.set(tool.name, 'the name is listed twice');
      definitions.delete(tool.name);
      return;
    }
    const checked = definitionOf(tool);
    if (typeof checked === 'string') rejected.set(tool.name, checked);
    else {
      definitions.set(tool.name, checked);
      accepted.push(tool);
    }
  });
  for (const [name, problem] of cacheToolMetadata(
    session,
    accepted.filter((t) => definitions.has(t.name)),
  )) {
    definitions.delete(name);
    rejected.set(name, problem);
  }
  return { definitions, rejected };
}

function protocolError(session: McpSession, method: string, message: string): McpProtocolError {
  return new McpProtocolError({ server: session.name, method, message });
}

/** The definition of a tool of the MCP shape, or what makes it unusable. */
function definitionOf(tool: Tool): McpToolDefinition | string {
  const schema: unknown = tool.inputSchema;
  if (!isRecord(schema) || schema.type !== 'object') {
    return 'its input schema is not an object schema';
  }
  try {
    return toolDefinition(
      tool.name,
      tool.description ?? '',
      schema as JsonSchema,
      tool.execution?.taskSupport,
    );
  } catch (cause) {
    return `its input schema cannot be used (${(cause as Error).message})`;
  }
}

/**
 * Hands the accepted tools to the SDK client, which compiles their output schemas (it checks
 * `structuredContent` against them on each call) and notes their task support — what its own
 * `listTools` does. A tool whose output schema does not compile is returned with its problem and
 * left out of the cache.
 */
function cacheToolMetadata(session: McpSession, tools: readonly Tool[]): Map<string, string> {
  const client = session.client as unknown as { cacheToolMetadata?: (tools: Tool[]) => void };
  const problems = new Map<string, string>();
  if (typeof client.cacheToolMetadata !== 'function') return problems;
  const cache = (some: Tool[]): void => {
    client.cacheToolMetadata?.(some);
  };
  const compiles = (tool: Tool): boolean => {
    try {
      cache([tool]);
      return true;
    } catch (cause) {
      problems.set(
        tool.name,
        `its output schema cannot be used (${bounded(describeError(cause))})`,
      );
      return false;
    }
  };
  try {
    cache([...tools]);
  } catch {
    // At least one output schema does not compile: find which, then cache the others.
    cache(tools.filter((tool) => tool.outputSchema === undefined || compiles(tool)));
  }
  return problems;
}

/** The first problem of a failed parse, briefly (server-chosen text is bounded). */
function firstIssue(error: {
  issues?: readonly { path?: readonly PropertyKey[]; message?: string }[];
}): string {
  const issue = error.issues?.[0];
  if (issue === undefined) return 'malformed';
  const path = (issue.path ?? []).map(String).join('.');
  return bounded(`${path === '' ? '' : `${path}: `}${issue.message ?? 'invalid'}`);
}

function bounded(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
