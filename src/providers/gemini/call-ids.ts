import type { Message } from '../../core/contract/message';

/**
 * Deterministic tool-call ids, unique within a conversation. Gemini's API usually sends no
 * `functionCall.id`, and ids it does send are not guaranteed unique across turns, so each call
 * gets `<name>_<n>`, where `n` counts the tool calls of the whole conversation: the calls already
 * in `request.messages` plus this call's position in the response (1-based). A provider id is
 * kept when it is not already used; any collision (with a provider id, or with an id from
 * another provider's history) moves on to the next `n`. No randomness, so the same request
 * always yields the same ids (prompt-cache prefixes stay stable) and streaming and `generate`
 * agree.
 */
export class CallIdAllocator {
  private readonly used = new Set<string>();
  private count = 0;

  constructor(messages: readonly Message[]) {
    for (const message of messages) {
      for (const call of message.toolCalls ?? []) {
        this.count++;
        this.used.add(call.id);
      }
      if (message.toolCallId !== undefined) this.used.add(message.toolCallId);
    }
  }

  /** The id of the next call named `name`, reusing `providerId` when it is fresh. */
  next(name: string, providerId?: string): string {
    this.count++;
    let id =
      providerId !== undefined && providerId !== '' && !this.used.has(providerId)
        ? providerId
        : `${name}_${this.count}`;
    while (this.used.has(id)) id = `${name}_${++this.count}`;
    this.used.add(id);
    return id;
  }
}
