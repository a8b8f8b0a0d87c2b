import type { Citation, HostedToolCall } from '../../core/contract/evidence';
import { isRecord } from '../../core/kit/guards';
import type { HostedTool } from '../../core/contract/hosted-tool';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ModelRequest } from '../../core/contract/request';
import { UnsupportedHostedToolError } from '../../core/contract/unsupported';
import { hostedToolsOf, providerFields } from '../shared/hosted';
import { PROVIDER } from './options';
import type { WireServerTool } from './wire';

/** The web search server tool's versioned type and fixed name. */
export const WEB_SEARCH_TYPE = 'web_search_20250305';
const WEB_SEARCH_NAME = 'web_search';

/**
 * The request's hosted tools as server tools: web search becomes `web_search_20250305` (named
 * `web_search`) with `max_uses`, `allowed_domains`, `blocked_domains` and an approximate
 * `user_location`; `providerOptions.anthropic` is merged last. Other hosted tools are
 * `UnsupportedHostedToolError`s, a local tool named `web_search` a model `ConfigError`.
 */
export function serverTools(
  request: ModelRequest,
  localNames: readonly string[],
): WireServerTool[] {
  return hostedToolsOf(PROVIDER, request).map((tool) => {
    if (tool.type !== 'web_search')
      throw new UnsupportedHostedToolError(
        PROVIDER,
        tool,
        'the Messages API offers web search as a server tool; use golem/providers/openai-responses for file search and code interpreter',
      );
    if (localNames.includes(WEB_SEARCH_NAME))
      throw modelConfigError(
        PROVIDER,
        `a local tool is named "${WEB_SEARCH_NAME}", the name of the hosted web search tool; rename the local tool`,
      );
    return { ...webSearch(tool), ...providerFields(tool, PROVIDER) };
  });
}

function webSearch(tool: Extract<HostedTool, { type: 'web_search' }>): WireServerTool {
  const wire: WireServerTool = { type: WEB_SEARCH_TYPE, name: WEB_SEARCH_NAME };
  if (tool.maxUses !== undefined) wire.max_uses = tool.maxUses;
  if (tool.allowedDomains !== undefined) wire.allowed_domains = [...tool.allowedDomains];
  if (tool.blockedDomains !== undefined) wire.blocked_domains = [...tool.blockedDomains];
  if (tool.userLocation !== undefined)
    wire.user_location = { type: 'approximate', ...tool.userLocation };
  return wire;
}

/** Hosted tool calls and citations found in an assistant turn's content blocks. */
export interface ServerEvidence {
  hostedToolCalls: HostedToolCall[];
  citations: Citation[];
}

/**
 * Reads the evidence of a message's `content` blocks, in order: each `server_tool_use` block is a
 * hosted tool call (`web_search` stays `web_search`, `code_execution` becomes
 * `code_interpreter`) whose `input` is its input JSON; a `…_tool_result` block answering it sets
 * its `output` (search results as `{type, url, title, page_age}`, their `encrypted_content` left
 * out) and status (`failed` for a `…_error` content, else `completed`). The `citations` of a text
 * block cite that block: its span in the concatenated text (`start`, `end`), the source `url` and
 * `title` (a web result) or the document `title`, and the `cited_text` as `quote`.
 */
export function readServerEvidence(content: readonly unknown[]): ServerEvidence {
  const evidence: ServerEvidence = { hostedToolCalls: [], citations: [] };
  const calls = new Map<string, HostedToolCall>();
  let offset = 0;
  for (const block of content) {
    if (!isRecord(block)) continue;
    if (block.type === 'text' && typeof block.text === 'string') {
      const start = offset;
      offset += block.text.length;
      if (Array.isArray(block.citations))
        for (const cited of block.citations as unknown[])
          evidence.citations.push(citationOf(cited, start, offset));
    } else if (block.type === 'server_tool_use' && typeof block.id === 'string') {
      const call: HostedToolCall = {
        id: block.id,
        type: neutralType(block.name),
        provider: PROVIDER,
        input: JSON.stringify(block.input ?? {}),
      };
      calls.set(block.id, call);
      evidence.hostedToolCalls.push(call);
    } else if (typeof block.type === 'string' && block.type.endsWith('_tool_result')) {
      const call = typeof block.tool_use_id === 'string' ? calls.get(block.tool_use_id) : undefined;
      if (call === undefined) continue;
      const failed = isRecord(block.content) && String(block.content.type).endsWith('_error');
      call.status = failed ? 'failed' : 'completed';
      call.output = JSON.stringify(resultOutput(block.content));
    }
  }
  return evidence;
}

function neutralType(name: unknown): string {
  if (name === 'code_execution') return 'code_interpreter';
  return typeof name === 'string' && name !== '' ? name : 'unknown';
}

/** A result's content without the opaque encrypted payloads. */
function resultOutput(content: unknown): unknown {
  if (!Array.isArray(content)) return content ?? null;
  return content.map((item: unknown) => {
    if (!isRecord(item)) return item;
    const { encrypted_content: _encrypted, ...rest } = item;
    return rest;
  });
}

function citationOf(cited: unknown, start: number, end: number): Citation {
  const source = isRecord(cited) ? cited : {};
  const web = typeof source.url === 'string';
  const citation: Citation = { type: web ? 'url' : 'document', start, end };
  if (web) citation.url = source.url as string;
  const title = web ? source.title : source.document_title;
  if (typeof title === 'string' && title !== '') citation.title = title;
  if (typeof source.cited_text === 'string' && source.cited_text !== '')
    citation.quote = source.cited_text;
  return citation;
}
