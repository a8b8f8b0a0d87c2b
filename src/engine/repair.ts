import type { Message, ToolCall } from '../model/message';

/** Model-facing text of a result synthesized for a call that never ran. */
export const INTERRUPTED_RESULT =
  'Tool call was interrupted before execution; no result was produced. Call the tool again if you need its result.';

const NO_CALLS: readonly ToolCall[] = [];

/**
 * Restores call/result pairing (spec §17.3): orphan, early and duplicate tool results are dropped,
 * and every unanswered call gets a synthesized "interrupted" result right after the assistant
 * message that requested it. Returns `history` itself when nothing needed repair. Idempotent.
 */
export function repairHistory(history: readonly Message[]): Message[] {
  const pending = new Map<string, { owner: number; call: ToolCall }>();
  /** Calls whose id a later assistant message reused before they were answered. */
  const displaced: { owner: number; call: ToolCall }[] = [];
  /** Indexes of the tool results to drop; allocated on the first one (most histories have none). */
  let drop: Set<number> | undefined;
  // An index loop and no per-message allocation: every run repairs its whole history.
  for (let index = 0; index < history.length; index++) {
    const message = history[index] as Message;
    if (message.role === 'assistant') {
      for (const call of message.toolCalls ?? NO_CALLS) {
        if (call.id === '') continue;
        const earlier = pending.get(call.id);
        if (earlier?.owner === index) continue; // a repeated id within one message is one call
        if (earlier !== undefined) displaced.push(earlier);
        pending.set(call.id, { owner: index, call });
      }
    } else if (message.role === 'tool') {
      const id = message.toolCallId ?? '';
      const entry = id === '' ? undefined : pending.get(id);
      if (entry === undefined) (drop ??= new Set()).add(index);
      else pending.delete(id);
    }
  }
  if (drop === undefined && displaced.length === 0 && pending.size === 0)
    return history as Message[];
  const unanswered = new Map<number, ToolCall[]>();
  for (const { owner, call } of [...displaced, ...pending.values()]) {
    const list = unanswered.get(owner) ?? [];
    list.push(call);
    unanswered.set(owner, list);
  }
  const repaired: Message[] = [];
  for (const [index, message] of history.entries()) {
    if (drop?.has(index) === true) continue;
    repaired.push(message);
    const calls = unanswered.get(index);
    if (calls === undefined) continue;
    const order = new Map((message.toolCalls ?? []).map((c, i) => [c, i] as const));
    calls.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
    for (const call of calls)
      repaired.push({
        role: 'tool',
        content: INTERRUPTED_RESULT,
        toolCallId: call.id,
        toolName: call.name,
      });
  }
  return repaired;
}

/**
 * The history to continue a failed run with: its evidence, the completed results of the batch it
 * failed in, and repair (interrupted results for the calls that never finished).
 */
export function historyFromPartial(partial: {
  messages: readonly Message[];
  toolResults?: readonly Message[];
}): Message[] {
  return repairHistory([...partial.messages, ...(partial.toolResults ?? [])]);
}

/** Calls in `history` that have no matching tool result, in emission order. */
export function unansweredCalls(history: readonly Message[]): ToolCall[] {
  const open = new Map<string, ToolCall>();
  const unanswered = new Set<ToolCall>();
  for (const message of history) {
    if (message.role === 'assistant') {
      const ids = new Set<string>();
      for (const call of message.toolCalls ?? []) {
        if (call.id !== '' && ids.has(call.id)) continue; // a repeated id within one message is one call
        ids.add(call.id);
        unanswered.add(call);
        if (call.id !== '') open.set(call.id, call);
      }
    } else if (message.role === 'tool' && message.toolCallId !== undefined) {
      const call = open.get(message.toolCallId);
      if (call === undefined) continue;
      open.delete(message.toolCallId);
      unanswered.delete(call);
    }
  }
  return [...unanswered];
}
