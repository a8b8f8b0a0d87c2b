import type { ConversationFilter } from '../../core/durable/port';
import type { StoredConversation } from '../../core/durable/records';
import {
  afterCursor,
  conversationLimit,
  prefilterMatches,
} from '../../core/durable/conversation-search';

/**
 * The conversations matching `filter`, newest `updatedAt` first (ties by id ascending), at most
 * `filter.limit` — what the SQL stores' query selects.
 */
export function selectConversations(
  conversations: readonly StoredConversation[],
  filter: ConversationFilter,
): StoredConversation[] {
  const { owner, text, before } = filter;
  return conversations
    .filter(
      (c) =>
        (owner === undefined || c.owner === owner) &&
        (text === undefined || prefilterMatches(c, text)) &&
        (before === undefined || afterCursor(c, before)),
    )
    .sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, conversationLimit(filter));
}
