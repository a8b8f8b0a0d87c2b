import type { Message } from '../contract/message';

/**
 * Context handed to a history processor.
 * @inline
 */
export interface HistoryProcessorContext {
  signal: AbortSignal;
}

/**
 * Rewrites the history of one run before validation and repair; called once per run on every
 * entry point. Returning `null`/`undefined` means "empty history"; throwing fails the run before
 * any model call.
 */
export type HistoryProcessor = (
  history: Message[],
  ctx: HistoryProcessorContext,
) => Message[] | null | undefined | Promise<Message[] | null | undefined>;

/**
 * A processor keeping the newest `maxMessages` messages, then advancing past messages that cannot
 * open a request (tool results, assistant turns with tool calls). A budget below 1, or nothing
 * left after the boundary rule, fails the run.
 */
export function trimHistory(maxMessages: number): HistoryProcessor {
  return (history) => {
    if (!Number.isInteger(maxMessages) || maxMessages < 1) {
      throw new Error(
        `trimHistory: maxMessages must be an integer >= 1, got ${String(maxMessages)}`,
      );
    }
    if (history.length <= maxMessages) return history;
    const kept = history.slice(history.length - maxMessages);
    let start = 0;
    while (start < kept.length) {
      const m = kept[start];
      if (m === undefined) break;
      const opensRequest =
        m.role === 'user' ||
        m.role === 'system' ||
        (m.role === 'assistant' && (m.toolCalls ?? []).length === 0);
      if (opensRequest) break;
      start++;
    }
    if (start >= kept.length) {
      throw new Error(
        `trimHistory: no turn in the newest ${maxMessages} messages can open a request (only tool results and tool calls remain)`,
      );
    }
    return kept.slice(start);
  };
}
