import { ModelRetry } from '../core/errors/errors';
import { isRecord } from '../core/kit/guards';
import { defineTool } from '../core/tool/define-tool';
import type { Tool } from '../core/tool/tool';
import { fail } from './option-checks';
import { capText } from './result';
import {
  DEFAULT_MAX_RESOURCE_BYTES,
  listResources,
  readResource,
  type McpResource,
  type McpResourceContents,
} from './resources';
import type { McpSession } from './session';

/** Which resources to expose: URIs, or a filter over the server's listing. */
export type McpResourceSelection = readonly string[] | ((resource: McpResource) => boolean);

/** Options of `client.resourceTool()`. */
export interface McpResourceToolOptions {
  /** The resources the model may read; default all listed resources. */
  select?: McpResourceSelection;
  /** The tool's name; default `read_resource`. */
  name?: string;
  /** Cap on the text of one read, in bytes; default 1 MiB. */
  maxBytes?: number;
}

/** Renders read contents as text: text verbatim, binary summarised. */
export function contentsText(contents: readonly McpResourceContents[]): string {
  return contents
    .map((item) =>
      item.text !== undefined
        ? item.text
        : `[binary: ${item.mimeType ?? 'unknown type'}, ${item.blob?.byteLength ?? 0} bytes]`,
    )
    .join('\n');
}

async function selected(
  session: McpSession,
  select: McpResourceSelection | undefined,
): Promise<string[]> {
  if (Array.isArray(select)) return [...(select as readonly string[])];
  const listed = await listResources(session);
  const keep = select as ((resource: McpResource) => boolean) | undefined;
  return listed.filter((r) => keep === undefined || keep(r)).map((r) => r.uri);
}

/**
 * A tool that lets the model read the selected resources on demand: its `uri` argument is an
 * enum of the selected URIs (so the model cannot ask for others), the result the resource's text
 * (binary summarised), capped at `maxBytes` with a marker.
 */
export async function resourceTool(
  session: McpSession,
  options: McpResourceToolOptions = {},
): Promise<Tool> {
  const uris = await selected(session, options.select);
  if (uris.length === 0) fail('select', 'selects no resource; the tool would be useless');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
  const name = options.name ?? 'read_resource';
  return defineTool({
    name,
    description: `Read one resource of the MCP server "${session.name}" by its URI.`,
    schema: {
      type: 'object',
      properties: { uri: { type: 'string', enum: uris, description: 'The resource to read.' } },
      required: ['uri'],
      additionalProperties: false,
    },
    execute: async (args, ctx) => {
      const uri = isRecord(args) ? args.uri : undefined;
      if (typeof uri !== 'string' || !uris.includes(uri)) {
        throw new ModelRetry(`uri must be one of: ${uris.join(', ')}`);
      }
      const contents = await readResource(session, uri, {
        maxBytes: Number.MAX_SAFE_INTEGER,
        signal: ctx.signal,
      });
      return capText(contentsText(contents), maxBytes);
    },
  });
}

/**
 * Instructions that put the selected resources in the model's context: a function (for the
 * agent's `instructions`) that reads them on every run and returns
 * `<resource uri="…">text</resource>` blocks, each capped at `maxBytes`.
 */
export function resourceContext(
  session: McpSession,
  uris: readonly string[],
  options: { maxBytes?: number } = {},
): () => Promise<string> {
  if (typeof uris !== 'object' || uris.length === 0)
    fail('uris', 'must list at least one resource URI');
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_RESOURCE_BYTES;
  return async () => {
    const blocks: string[] = [];
    for (const uri of uris) {
      const contents = await readResource(session, uri, { maxBytes: Number.MAX_SAFE_INTEGER });
      blocks.push(
        `<resource uri=${JSON.stringify(uri)}>\n${capText(contentsText(contents), maxBytes)}\n</resource>`,
      );
    }
    return blocks.join('\n');
  };
}
