import { isRecord } from '../kit/guards';

/** The provider-hosted tools Golem knows how to declare. */
export type HostedToolType = 'web_search' | 'file_search' | 'code_interpreter';

/** Provider-specific fields merged into a hosted tool's wire object, keyed by provider id. */
export type HostedToolProviderOptions = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/**
 * An approximate user location that biases web search results.
 * @inline
 */
export interface SearchLocation {
  /** City name, e.g. `Lagos`. */
  readonly city?: string;
  /** Region or state. */
  readonly region?: string;
  /** Two-letter ISO country code, e.g. `NG`. */
  readonly country?: string;
  /** IANA time zone, e.g. `Africa/Lagos`. */
  readonly timezone?: string;
}

/** Fields every hosted tool has. */
interface HostedToolBase {
  /**
   * Extra wire fields per adapter provider id (`openai-responses`, `anthropic`, `gemini`),
   * merged into the tool's wire object last, e.g. `{ anthropic: { max_uses: 3 } }`.
   */
  readonly providerOptions?: HostedToolProviderOptions;
}

/**
 * Web search run by the provider: OpenAI `web_search`, Anthropic `web_search_20250305`, Gemini `google_search`.
 * @inline
 */
export interface WebSearchTool extends HostedToolBase {
  readonly type: 'web_search';
  /** Most searches per request (Anthropic `max_uses`). */
  readonly maxUses?: number;
  /** Only search these domains (Anthropic `allowed_domains`, OpenAI `filters.allowed_domains`). */
  readonly allowedDomains?: readonly string[];
  /** Never search these domains (Anthropic `blocked_domains`). */
  readonly blockedDomains?: readonly string[];
  /** Where the user is, to localise results. */
  readonly userLocation?: SearchLocation;
  /** How much retrieved context the model gets (OpenAI `search_context_size`). */
  readonly contextSize?: 'low' | 'medium' | 'high';
}

/**
 * Retrieval over the provider's vector stores (OpenAI `file_search`).
 * @inline
 */
export interface FileSearchTool extends HostedToolBase {
  readonly type: 'file_search';
  /** The vector stores to search (at least one). */
  readonly vectorStoreIds: readonly string[];
  /** Most results returned to the model. */
  readonly maxResults?: number;
}

/**
 * Code run in the provider's sandbox (OpenAI `code_interpreter`).
 * @inline
 */
export interface CodeInterpreterTool extends HostedToolBase {
  readonly type: 'code_interpreter';
  /** A container id, or files to load into a new automatic container. */
  readonly container?: string | { readonly fileIds?: readonly string[] };
}

/**
 * A tool the provider runs itself, declared next to the agent's own tools (`hostedTools`). Golem
 * never executes it: the adapter advertises it, the provider runs it inside the model call, and
 * its calls, results and citations come back as evidence on the assistant message
 * (`hostedToolCalls`, `citations`). An adapter that cannot offer one throws
 * `UnsupportedHostedToolError` before anything is sent.
 */
export type HostedTool = WebSearchTool | FileSearchTool | CodeInterpreterTool;

/** Web search run by the provider. */
export function webSearchTool(options: Omit<WebSearchTool, 'type'> = {}): WebSearchTool {
  return { type: 'web_search', ...options };
}

/** Retrieval over the provider's vector stores. */
export function fileSearchTool(options: Omit<FileSearchTool, 'type'>): FileSearchTool {
  return { type: 'file_search', ...options };
}

/** Code run in the provider's sandbox. */
export function codeInterpreterTool(
  options: Omit<CodeInterpreterTool, 'type'> = {},
): CodeInterpreterTool {
  return { type: 'code_interpreter', ...options };
}

const TYPES: readonly string[] = ['web_search', 'file_search', 'code_interpreter'];

/**
 * Why `tool` is not a valid hosted tool, or `undefined`: an unknown type, a non-positive
 * `maxUses` / `maxResults`, domain lists that are not arrays of non-empty strings, a file search
 * without vector stores, a malformed container or `providerOptions`.
 */
export function hostedToolProblem(tool: unknown): string | undefined {
  if (!isRecord(tool)) return 'a hosted tool must be an object, e.g. webSearchTool()';
  const type = tool.type;
  if (typeof type !== 'string' || !TYPES.includes(type))
    return `unknown hosted tool type ${JSON.stringify(type)}; known: ${TYPES.join(', ')}`;
  const options = tool.providerOptions;
  if (options !== undefined && (!isRecord(options) || !Object.values(options).every(isRecord)))
    return `${type}: providerOptions must map provider ids to objects of wire fields`;
  if (type === 'web_search') return webSearchProblem(tool);
  if (type === 'file_search') {
    const ids = tool.vectorStoreIds;
    if (!stringList(ids) || (ids as unknown[]).length === 0)
      return 'file_search needs vectorStoreIds: at least one vector store id';
    return positive('file_search', 'maxResults', tool.maxResults);
  }
  const container = tool.container;
  if (container === undefined || (typeof container === 'string' && container !== ''))
    return undefined;
  if (isRecord(container) && (container.fileIds === undefined || stringList(container.fileIds)))
    return undefined;
  return 'code_interpreter: container must be a container id or { fileIds: string[] }';
}

function webSearchProblem(tool: Record<string, unknown>): string | undefined {
  for (const field of ['allowedDomains', 'blockedDomains'])
    if (tool[field] !== undefined && !stringList(tool[field]))
      return `web_search: ${field} must be an array of non-empty strings`;
  if (tool.allowedDomains !== undefined && tool.blockedDomains !== undefined)
    return 'web_search: set allowedDomains or blockedDomains, not both';
  const location = tool.userLocation;
  if (location !== undefined && !isRecord(location))
    return 'web_search: userLocation must be an object';
  const size = tool.contextSize;
  if (size !== undefined && size !== 'low' && size !== 'medium' && size !== 'high')
    return 'web_search: contextSize must be low, medium or high';
  return positive('web_search', 'maxUses', tool.maxUses);
}

function positive(type: string, field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0
    ? undefined
    : `${type}: ${field} must be a whole number >= 1`;
}

function stringList(value: unknown): boolean {
  return Array.isArray(value) && value.every((item) => typeof item === 'string' && item !== '');
}
