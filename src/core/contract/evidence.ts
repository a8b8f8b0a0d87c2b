/**
 * One call of a provider-hosted tool (web search, file search, code interpreter) as the provider
 * reported it. Golem never executed it; it is evidence on the assistant message that the model's
 * answer drew on (and the durable JSON keeps it).
 */
export interface HostedToolCall {
  /** The provider's id of the call (`ws_…`, `srvtoolu_…`), or a generated one. */
  id: string;
  /** The tool, provider-neutral: `web_search`, `file_search`, `code_interpreter`. */
  type: string;
  /** Provider id of the adapter that reported it (`openai-responses`, `anthropic`, `gemini`). */
  provider?: string;
  /** The provider's status of the call (`completed`, `failed`, `incomplete`…). */
  status?: string;
  /** JSON text of what the tool was asked: the search query or action, the code, the queries. */
  input?: string;
  /** JSON text of what the tool returned: sources, search results, code outputs, an error. */
  output?: string;
}

/**
 * A source the answer cites (an OpenAI annotation, an Anthropic citation, a Gemini grounding
 * chunk). `start`/`end` locate the supported span in the message's `content`, in UTF-16 code
 * units (JavaScript string indexes), when the provider says which text it supports.
 */
export interface Citation {
  /** `url` (a web page), `file` (an uploaded file), `container_file` (a file made by code). */
  type: string;
  /** The cited page. */
  url?: string;
  /** The page or file title. */
  title?: string;
  /** The cited file's provider id. */
  fileId?: string;
  /** The cited file's name. */
  filename?: string;
  /** Start of the supported span in `content` (inclusive). */
  start?: number;
  /** End of the supported span in `content` (exclusive). */
  end?: number;
  /** The quoted source text, when the provider returns it (Anthropic `cited_text`). */
  quote?: string;
}

/** Deep copy of hosted-tool calls and citations (their fields are all plain values). */
export function copyEvidence<T extends object>(items: readonly T[]): T[] {
  return items.map((item) => ({ ...item }));
}
