import type { Middleware } from '../core/index';

/**
 * A run middleware for a replay that continues after tool results: golem's `run` always appends
 * its prompt as a user message, so a run started with an empty prompt ends its first request with
 * an empty user message. This drops that message (an empty text without parts, last in the
 * request) from every request, so the model sees the kept history as it was. The stored history
 * keeps it (an empty user message, which the timeline shows as an empty prompt).
 */
export function continueAfterResults(): Middleware {
  return {
    name: 'studio-continue',
    request: (request) => {
      const messages = request.messages;
      const index = messages.findIndex(
        (m, i) =>
          m.role === 'user' &&
          (m.content ?? '') === '' &&
          (m.parts?.length ?? 0) === 0 &&
          i > 0 &&
          messages[i - 1]?.role === 'tool',
      );
      if (index === -1) return request;
      return { ...request, messages: messages.filter((_, i) => i !== index) };
    },
  };
}
