import type { Message, PendingToolCalls } from '../core/index';
import type { StudioToolCall, StudioTurn } from './api-types';

/** What the engine writes as a tool result when it refuses or denies a call (src/core/engine/texts.ts). */
const ERROR_PREFIXES = [
  'Your tool call was rejected:',
  'Your tool call was denied',
  'Your result was rejected:',
] as const;

/** Whether a tool result is an error fed back to the model (a rejection or a denial). */
export function isErrorResult(text: string): boolean {
  return ERROR_PREFIXES.some((prefix) => text.startsWith(prefix));
}

/** `args` pretty-printed when they are JSON, else as sent. */
export function prettyArgs(args: string): string {
  if (args.trim() === '') return args;
  try {
    return JSON.stringify(JSON.parse(args) as unknown, null, 2);
  } catch {
    return args;
  }
}

/** What a timeline marks besides the history: the calls waiting and those in flight. */
export interface TimelineMarks {
  /** The calls a paused run waits for. */
  readonly pending?: PendingToolCalls | undefined;
  /** Calls that had started with no recorded outcome at the last checkpoint. */
  readonly inFlight?: readonly string[];
}

/**
 * The turns of a stored history: one per assistant message, with the user text that preceded it,
 * its text, readable thinking, and its tool calls matched to their results by `toolCallId`
 * (error results flagged; pending and in-flight calls marked).
 */
export function deriveTimeline(
  messages: readonly Message[],
  marks: TimelineMarks = {},
): StudioTurn[] {
  const results = new Map<string, string>();
  for (const message of messages) {
    if (message.role === 'tool' && message.toolCallId !== undefined)
      results.set(message.toolCallId, message.content ?? '');
  }
  const pending = new Set<string>();
  for (const call of [...(marks.pending?.approvals ?? []), ...(marks.pending?.external ?? [])])
    pending.add(call.callId);
  const inFlight = new Set(marks.inFlight ?? []);
  const turns: StudioTurn[] = [];
  let prompt: string | undefined;
  for (const [messageIndex, message] of messages.entries()) {
    if (message.role === 'user') {
      // A replay that continues after tool results stores an empty user message: not a prompt.
      const text = message.content ?? '';
      if (text !== '' || (message.parts?.length ?? 0) > 0) prompt = text;
      continue;
    }
    if (message.role !== 'assistant') continue;
    const toolCalls = (message.toolCalls ?? []).map((call): StudioToolCall => {
      const result = results.get(call.id);
      return {
        id: call.id,
        name: call.name,
        args: prettyArgs(call.args),
        ...(result !== undefined && { result, isError: isErrorResult(result) }),
        ...(result === undefined && pending.has(call.id) && { pending: true }),
        ...(result === undefined && inFlight.has(call.id) && { inFlight: true }),
      };
    });
    const thinking = (message.thinking ?? [])
      .map((block) => block.text)
      .filter((text): text is string => text !== undefined && text !== '');
    turns.push({
      index: turns.length,
      messageIndex,
      ...(prompt !== undefined && { prompt }),
      ...(message.content !== undefined && message.content !== '' && { text: message.content }),
      ...(thinking.length > 0 && { thinking }),
      toolCalls,
    });
    prompt = undefined;
  }
  return turns;
}

/** The turn indexes a replay may start from: 0 … the number of turns. */
export function checkpointsOf(turns: readonly StudioTurn[]): number[] {
  return Array.from({ length: turns.length + 1 }, (_, i) => i);
}
