import type { Message, ToolCall } from '../contract/message';

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
  if (history.length === 0) return history as Message[];
  /** The message index of every call awaiting its result, by call id. */
  const pending = new Map<string, number>();
  /** Calls whose id a later assistant message reused before they were answered. */
  let displaced: { owner: number; call: ToolCall }[] | undefined;
  /** Indexes of the tool results to drop; allocated on the first one (most histories have none). */
  let drop: Set<number> | undefined;
  // An index loop and no per-message or per-call allocation: every run repairs its whole history.
  for (let index = 0; index < history.length; index++) {
    const message = history[index] as Message;
    const role = message.role;
    if (role === 'assistant') {
      const calls = message.toolCalls ?? NO_CALLS;
      for (let c = 0; c < calls.length; c++) {
        const id = (calls[c] as ToolCall).id;
        if (id === '') continue;
        const earlier = pending.get(id);
        if (earlier === index) continue; // a repeated id within one message is one call
        if (earlier !== undefined)
          (displaced ??= []).push({ owner: earlier, call: callWithId(history, earlier, id) });
        pending.set(id, index);
      }
    } else if (role === 'tool') {
      const id = message.toolCallId ?? '';
      if (id === '' || !pending.delete(id)) (drop ??= new Set()).add(index);
    }
  }
  if (drop === undefined && displaced === undefined && pending.size === 0)
    return history as Message[];
  const unanswered = new Map<number, ToolCall[]>();
  const open = [...(displaced ?? [])];
  for (const [id, owner] of pending) open.push({ owner, call: callWithId(history, owner, id) });
  for (const { owner, call } of open) {
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

/** The first call with `id` in message `owner` (the one a repeated id within it stands for). */
function callWithId(history: readonly Message[], owner: number, id: string): ToolCall {
  return (history[owner]?.toolCalls ?? NO_CALLS).find((c) => c.id === id) as ToolCall;
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
