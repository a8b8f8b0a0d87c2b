import type { Citation, HostedToolCall } from '../../core/contract/evidence';
import { isRecord } from '../../core/kit/guards';
import type { HostedTool } from '../../core/contract/hosted-tool';
import { UnsupportedHostedToolError } from '../../core/contract/unsupported';
import { providerFields } from '../shared/hosted';

/**
 * The wire tool for a hosted tool: web search is grounding with Google Search (`google_search`,
 * plus `providerOptions.gemini`). Domain filters have no Gemini equivalent and other hosted tools
 * are not offered: both are `UnsupportedHostedToolError`s. (`maxUses`, `userLocation` and
 * `contextSize` are hints Gemini has no field for; they are not sent.)
 */
export function groundingTool(provider: string, tool: HostedTool): Record<string, unknown> {
  if (tool.type !== 'web_search')
    throw new UnsupportedHostedToolError(
      provider,
      tool,
      'Gemini offers web search (grounding with Google Search) as a hosted tool; use golem/providers/openai-responses for file search and code interpreter',
    );
  if (tool.allowedDomains !== undefined || tool.blockedDomains !== undefined)
    throw new UnsupportedHostedToolError(
      provider,
      tool,
      'grounding with Google Search takes no domain filters; remove allowedDomains / blockedDomains',
    );
  return { google_search: providerFields(tool, provider) };
}

/** The evidence of a candidate's `groundingMetadata`. */
export interface GroundingEvidence {
  hostedToolCalls: HostedToolCall[];
  citations: Citation[];
}

/**
 * Reads `groundingMetadata`: one hosted `web_search` call (id `google_search-1`) whose input is
 * `{queries: webSearchQueries}` and output the grounding chunks (and the search entry point, when
 * sent); one `url` citation per grounding support and chunk it names, its span converted from
 * Gemini's UTF-8 byte offsets to string indexes of `text` (the answer), located by the segment's
 * own text when the offsets do not match it.
 */
export function readGrounding(
  provider: string,
  metadata: unknown,
  text: string,
): GroundingEvidence {
  if (!isRecord(metadata)) return { hostedToolCalls: [], citations: [] };
  const chunks = Array.isArray(metadata.groundingChunks)
    ? (metadata.groundingChunks as unknown[])
    : [];
  const queries = Array.isArray(metadata.webSearchQueries) ? metadata.webSearchQueries : [];
  const output: Record<string, unknown> = { chunks };
  if (metadata.searchEntryPoint !== undefined) output.searchEntryPoint = metadata.searchEntryPoint;
  const call: HostedToolCall = {
    id: 'google_search-1',
    type: 'web_search',
    provider,
    status: 'completed',
    input: JSON.stringify({ queries }),
    output: JSON.stringify(output),
  };
  const citations: Citation[] = [];
  const supports = Array.isArray(metadata.groundingSupports) ? metadata.groundingSupports : [];
  for (const support of supports as unknown[]) {
    if (!isRecord(support) || !Array.isArray(support.groundingChunkIndices)) continue;
    const span = spanOf(support.segment, text);
    for (const index of support.groundingChunkIndices as unknown[]) {
      const chunk: unknown = typeof index === 'number' ? chunks[index] : undefined;
      const web = isRecord(chunk) && isRecord(chunk.web) ? chunk.web : undefined;
      if (web === undefined || typeof web.uri !== 'string') continue;
      const citation: Citation = { type: 'url', url: web.uri, ...span };
      if (typeof web.title === 'string' && web.title !== '') citation.title = web.title;
      citations.push(citation);
    }
  }
  const used = queries.length > 0 || chunks.length > 0;
  return { hostedToolCalls: used ? [call] : [], citations };
}

function spanOf(segment: unknown, text: string): { start?: number; end?: number } {
  if (!isRecord(segment)) return {};
  const quoted = typeof segment.text === 'string' ? segment.text : undefined;
  const startByte = typeof segment.startIndex === 'number' ? segment.startIndex : 0;
  const endByte = typeof segment.endIndex === 'number' ? segment.endIndex : undefined;
  if (endByte !== undefined) {
    const start = charIndex(text, startByte);
    const end = charIndex(text, endByte);
    if (
      start !== undefined &&
      end !== undefined &&
      (quoted === undefined || text.slice(start, end) === quoted)
    )
      return { start, end };
  }
  if (quoted === undefined || quoted === '') return {};
  const found = text.indexOf(quoted);
  return found < 0 ? {} : { start: found, end: found + quoted.length };
}

/** The string index at UTF-8 byte offset `byte` of `text`, or `undefined` mid-character or past the end. */
function charIndex(text: string, byte: number): number | undefined {
  let bytes = 0;
  for (let i = 0; i <= text.length;) {
    if (bytes === byte) return i;
    if (bytes > byte || i === text.length) return undefined;
    const code = text.codePointAt(i) ?? 0;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    i += code >= 0x10000 ? 2 : 1;
  }
  return undefined;
}
