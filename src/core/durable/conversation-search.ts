import type { Message } from '../contract/message';
import type { ConversationCursor, ConversationFilter } from './port';
import type { StoredConversation } from './records';

/**
 * Text search over stored conversations, shared by golem's store adapters and the threads API:
 * the prefilter a store applies to rows ({@link ConversationFilter.text}) and the exact match
 * golem confirms on decoded messages. Letters compare ASCII-case-insensitively (`A`–`Z` fold to
 * `a`–`z`, every other character matches exactly): what SQLite's `LIKE` does, so every store
 * finds the same conversations. Internal.
 */

/** The default and largest number of conversations one listing returns. */
export const CONVERSATION_LIMIT = 100;
export const CONVERSATION_LIMIT_MAX = 10_000;

/** `text` with ASCII capitals lowered, nothing else changed. */
export function foldAscii(text: string): string {
  return text.replace(/[A-Z]/g, (c) => c.toLowerCase());
}

/** `text` as JSON writes it inside a string: what a stored `messages` column contains. */
export function jsonNeedle(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}

/** A `LIKE` pattern containing `text` anywhere, with `!` escaping `!`, `%` and `_` (`ESCAPE '!'`). */
export function likePattern(text: string): string {
  return `%${text.replace(/[!%_]/g, (c) => `!${c}`)}%`;
}

/** The listing limit of `filter`, clamped to 0–{@link CONVERSATION_LIMIT_MAX}. */
export function conversationLimit(filter: ConversationFilter): number {
  const limit = Math.floor(filter.limit ?? CONVERSATION_LIMIT);
  return Number.isFinite(limit) ? Math.min(Math.max(limit, 0), CONVERSATION_LIMIT_MAX) : 0;
}

/** Whether `row` comes after `cursor` in a listing (newest `updatedAt` first, ties by id). */
export function afterCursor(row: StoredConversation, cursor: ConversationCursor): boolean {
  return (
    row.updatedAt < cursor.updatedAt || (row.updatedAt === cursor.updatedAt && row.id > cursor.id)
  );
}

/** The prefilter {@link ConversationFilter.text} describes, on a row. */
export function prefilterMatches(row: StoredConversation, text: string): boolean {
  const title = typeof row.title === 'string' ? foldAscii(row.title) : '';
  return (
    title.includes(foldAscii(text)) ||
    (typeof row.messages === 'string' &&
      foldAscii(row.messages).includes(foldAscii(jsonNeedle(text))))
  );
}

/** Whether the title or a user or assistant message's text contains `text` (ASCII-case-insensitively). */
export function conversationMatches(
  title: string | undefined,
  messages: readonly Message[],
  text: string,
): boolean {
  const needle = foldAscii(text);
  if (title !== undefined && foldAscii(title).includes(needle)) return true;
  return messages.some(
    (m) =>
      (m.role === 'user' || m.role === 'assistant') &&
      typeof m.content === 'string' &&
      foldAscii(m.content).includes(needle),
  );
}
