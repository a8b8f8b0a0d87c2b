/** One block of assistant reasoning. Signatures and redacted payloads are opaque and immutable. */
export interface ThinkingBlock {
  /** Readable reasoning text. */
  text?: string;
  /** Provider signature that must be replayed with `text`. */
  signature?: string;
  /** Encrypted reasoning the provider hid; replayed unchanged. */
  redacted?: string;
  /**
   * Provider id of the adapter that produced the block (`anthropic`, `gemini`, `bedrock`,
   * `azure`, an OpenAI-compatible preset name…). Adapters replay a block only to its origin (see
   * docs/guides/thinking.md); a block without it (older stored histories, hand-written blocks)
   * is trusted as the receiving adapter's own.
   */
  provider?: string;
  /**
   * Model id the producing adapter was configured with (OpenAI-compatible adapters, which never
   * replay reasoning, record the model the response names).
   */
  model?: string;
  /**
   * The provider's id of the reasoning item (OpenAI Responses `rs_…`), replayed with it. Only
   * adapters whose API addresses reasoning by id set it.
   */
  id?: string;
}

/** A text-only thinking block. */
export function thinkingText(text: string): ThinkingBlock {
  return { text };
}

/** A thinking block with its provider signature. */
export function signedThinking(text: string, signature: string): ThinkingBlock {
  return { text, signature };
}

/** A redacted thinking block. */
export function redactedThinking(data: string): ThinkingBlock {
  return { redacted: data };
}

/**
 * Returns why `block` is invalid, or `undefined` when it is valid. A signature without text is
 * valid: providers that omit the reasoning text (Anthropic's `display: omitted`) still need the
 * signature replayed.
 */
export function thinkingProblem(block: ThinkingBlock): string | undefined {
  const hasText = block.text !== undefined && block.text !== '';
  const hasRedacted = block.redacted !== undefined && block.redacted !== '';
  const hasSignature = block.signature !== undefined && block.signature !== '';
  if (!hasText && !hasRedacted && !hasSignature) {
    return 'thinking block has neither text, a signature nor redacted data';
  }
  if (hasText && hasRedacted)
    return 'thinking block has both text and redacted data; set exactly one';
  if (hasRedacted && hasSignature) return 'a redacted thinking block cannot carry a signature';
  return undefined;
}
