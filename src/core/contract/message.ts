import type { Citation, HostedToolCall } from './evidence';
import { copyEvidence } from './evidence';
import type { Part } from './part';
import type { ThinkingBlock } from './thinking';

/** The four conversation roles, spelled exactly as in the durable JSON shape. */
export type Role = 'system' | 'user' | 'assistant' | 'tool';

/** All roles, in a stable order. */
export const ROLES: readonly Role[] = ['system', 'user', 'assistant', 'tool'];

/** One tool invocation requested by the model. */
export interface ToolCall {
  /** Provider-assigned correlation id; results answer it through `Message.toolCallId`. */
  id: string;
  /** Name of the requested tool. */
  name: string;
  /** Raw JSON text of the arguments, untrusted and unparsed (decision D1). */
  args: string;
  /** Opaque provider reasoning evidence bound to this call (e.g. Gemini `thoughtSignature`). */
  signature?: string;
  /**
   * Provider id of the adapter that issued `signature`; set with it. A signature is replayed
   * only to its issuer; one without this field (older stored histories) is trusted.
   */
  signatureProvider?: string;
  /** Model id the issuing adapter was configured with; set with `signatureProvider`. */
  signatureModel?: string;
}

/**
 * An opaque provider-side compaction of the conversation (OpenAI Responses `compaction` item):
 * the provider condensed everything before the message that carries it into `data`. Replayed
 * unchanged, in place of the context it replaced, and only to the adapter that issued it; every
 * other adapter ignores it and sends the full history instead.
 * @inline
 */
export interface CompactionItem {
  /** Provider id of the adapter that issued it (`openai-responses`). */
  provider: string;
  /** Model id the issuing adapter was configured with; replayed only to the same model. */
  model?: string;
  /** The provider's id of the item, replayed with it. */
  id?: string;
  /** The encrypted content (`encrypted_content`): opaque, never parsed, replayed as is. */
  data: string;
}

/** One message of a conversation; the durable JSON shape of spec §1. */
export interface Message {
  role: Role;
  /** Text content; absent and empty are equivalent. */
  content?: string;
  /** Non-text content (images, documents, audio); user messages only. */
  parts?: Part[];
  /** Calls requested by an assistant message; they decide the turn. */
  toolCalls?: ToolCall[];
  /** On tool messages: the id of the call this result answers. */
  toolCallId?: string;
  /** On tool messages: the name of the tool that produced this result. */
  toolName?: string;
  /** Assistant reasoning blocks, in provider order. */
  thinking?: ThinkingBlock[];
  /**
   * A prompt-cache breakpoint after this message: providers with explicit caching (Anthropic,
   * Bedrock) cache the conversation up to and including it. A hint; providers without explicit
   * caching ignore it. See `ModelSettings.cache`.
   */
  cachePoint?: boolean;
  /**
   * On assistant messages: calls of provider-hosted tools (web search, file search, code
   * interpreter) the provider ran during this turn. Evidence only: Golem never executes them.
   */
  hostedToolCalls?: HostedToolCall[];
  /** On assistant messages: the sources the text cites (annotations, grounding), in order. */
  citations?: Citation[];
  /**
   * On assistant messages: the provider's id of the response that produced it, kept by adapters
   * that can continue a conversation server-side (OpenAI Responses `previous_response_id`).
   */
  responseId?: string;
  /**
   * On assistant messages: the provider's compaction of the conversation before this message
   * (its `provider`, `model`, `id` and opaque `data`). The history keeps the messages it
   * replaced, so a request to another provider (a fallback model) still carries them.
   */
  compaction?: CompactionItem;
}

/** A system message. */
export function systemMessage(content: string): Message {
  return { role: 'system', content };
}

/** A user message, optionally with parts (images, documents, audio). */
export function userMessage(content: string, parts?: Part[]): Message {
  return parts !== undefined && parts.length > 0
    ? { role: 'user', content, parts }
    : { role: 'user', content };
}

/** An assistant message with text and optional tool calls. */
export function assistantMessage(content: string, toolCalls?: ToolCall[]): Message {
  const message: Message = { role: 'assistant' };
  if (content !== '') message.content = content;
  if (toolCalls !== undefined && toolCalls.length > 0) message.toolCalls = toolCalls;
  return message;
}

/** A tool-result message answering `call`. */
export function toolResultMessage(call: Pick<ToolCall, 'id' | 'name'>, content: string): Message {
  return { role: 'tool', content, toolCallId: call.id, toolName: call.name };
}

/** Deep copy of a message (parts' bytes included) so later mutation cannot alter the copy. */
export function cloneMessage(message: Message): Message {
  const copy: Message = { ...message };
  if (message.parts)
    copy.parts = message.parts.map((p) =>
      p.data ? { ...p, data: new Uint8Array(p.data) } : { ...p },
    );
  if (message.toolCalls) copy.toolCalls = message.toolCalls.map((c) => ({ ...c }));
  if (message.thinking) copy.thinking = message.thinking.map((b) => ({ ...b }));
  if (message.hostedToolCalls) copy.hostedToolCalls = copyEvidence(message.hostedToolCalls);
  if (message.citations) copy.citations = copyEvidence(message.citations);
  if (message.compaction) copy.compaction = { ...message.compaction };
  return copy;
}
