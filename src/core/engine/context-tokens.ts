import type { Message } from '../contract/message';
import type { Usage } from '../contract/usage';

/** Counts the tokens of a text. Internal. */
export type TokenCounter = (text: string) => number;

/**
 * Estimated tokens of `text`: one token per four characters, rounded up — compaction's default
 * (`countTokens`) and recall's budget, where no tokenizer is loaded.
 */
export function estimateTokens(text: string): number {
  return Math.ceil(text.length / 4);
}

/** Tokens a non-text part is estimated at (an image or document page as providers bill it, roughly). */
const MEDIA_PART_TOKENS = 1000;
/** Per-message framing (role, separators) most chat formats add. */
const MESSAGE_OVERHEAD = 4;

/** An estimator of a message's tokens, cached per message object. Internal. */
export function messageCounter(count: TokenCounter): (message: Message) => number {
  const cache = new WeakMap<Message, number>();
  return (message) => {
    let tokens = cache.get(message);
    if (tokens === undefined) {
      tokens = countMessage(message, count);
      cache.set(message, tokens);
    }
    return tokens;
  };
}

function countMessage(m: Message, count: TokenCounter): number {
  let tokens = MESSAGE_OVERHEAD;
  if (m.content !== undefined && m.content !== '') tokens += count(m.content);
  tokens += (m.parts ?? []).length * MEDIA_PART_TOKENS;
  for (const call of m.toolCalls ?? []) tokens += count(call.name) + count(call.args);
  for (const block of m.thinking ?? []) tokens += count(block.text ?? '');
  return tokens;
}

/**
 * What the provider measured of a context: the usage of the response to a request of `length`
 * messages covers those messages and the response itself (the `length + 1`-th). Internal.
 */
export interface ContextAnchor {
  readonly tokens: number;
  readonly length: number;
}

/** The anchor a response gives (`undefined` when the provider reported no input tokens). Internal. */
export function anchorOf(usage: Usage, requestLength: number): ContextAnchor | undefined {
  if (usage.inputTokens <= 0) return undefined;
  return { tokens: usage.inputTokens + usage.outputTokens, length: requestLength + 1 };
}

/**
 * The estimated size of `messages`: the anchor's measured tokens plus an estimate of the messages
 * after it, or an estimate of every message without one. Internal.
 */
export function contextTokens(
  messages: readonly Message[],
  anchor: ContextAnchor | undefined,
  count: (message: Message) => number,
): number {
  const from = anchor !== undefined && anchor.length <= messages.length ? anchor.length : 0;
  let tokens = from > 0 && anchor !== undefined ? anchor.tokens : 0;
  for (let i = from; i < messages.length; i++) tokens += count(messages[i] as Message);
  return tokens;
}
