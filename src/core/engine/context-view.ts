import type { Message } from '../contract/message';
import type { Compaction } from './compaction';

/** The text that replaces a cleared tool result. Internal. */
export function clearedResultText(toolName: string | undefined, length: number): string {
  return `[tool result cleared to save context: ${toolName ?? 'the tool'} returned ${length} characters here; call it again if you need them]`;
}

/**
 * The messages a request sends once a run's compactions are applied to its full history, and how
 * its positions map back to the conversation. Internal.
 */
export interface ContextView {
  /** The messages to send: system message first (if any), then the conversation as compacted. */
  readonly messages: Message[];
  /** Where the conversation starts in `messages` (1 after a system message, else 0). */
  readonly start: number;
  /** How many messages of the latest replacement open the conversation (0 without one). */
  readonly replaced: number;
  /** The conversation position the messages after the replacement start at. */
  readonly offset: number;
  /** The indexes in `messages` of the tool results that show the cleared marker. */
  readonly cleared: ReadonlySet<number>;
}

/** Where the conversation starts in `messages`: after the system message, if any. Internal. */
export function conversationStart(messages: readonly Message[]): number {
  return messages[0]?.role === 'system' ? 1 : 0;
}

/**
 * Applies `compactions` (in order) to `messages`: the latest replacement stands for the
 * positions before its `to`; results of cleared calls show a marker instead of their content
 * (only within the record's `from`…`to`: call ids are not unique across every conversation).
 * Without compactions the view is the messages themselves (copied). Internal.
 */
export function contextView(
  messages: readonly Message[],
  compactions: readonly Compaction[],
): ContextView {
  const start = conversationStart(messages);
  const none: ReadonlySet<number> = new Set();
  if (compactions.length === 0)
    return { messages: [...messages], start, replaced: 0, offset: 0, cleared: none };
  let latest: Compaction | undefined;
  const clears: { ids: ReadonlySet<string>; from: number; to: number }[] = [];
  for (const c of compactions) {
    if (c.replacement !== undefined && (latest === undefined || c.to >= latest.to)) latest = c;
    if (c.cleared !== undefined && c.cleared.length > 0)
      clears.push({ ids: new Set(c.cleared), from: c.from, to: c.to });
  }
  const offset = latest?.to ?? 0;
  const replacement = latest?.replacement ?? [];
  const view: Message[] = messages.slice(0, start);
  view.push(...replacement);
  const cleared = new Set<number>();
  for (let i = start + offset; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (isCleared(m, i - start, clears)) {
      cleared.add(view.length);
      view.push(clearedMessage(m));
    } else view.push(m);
  }
  return { messages: view, start, replaced: replacement.length, offset, cleared };
}

function isCleared(
  m: Message,
  position: number,
  clears: readonly { ids: ReadonlySet<string>; from: number; to: number }[],
): boolean {
  if (m.role !== 'tool' || m.toolCallId === undefined) return false;
  const id = m.toolCallId;
  return clears.some((c) => position >= c.from && position < c.to && c.ids.has(id));
}

/** A tool result with its content replaced by the cleared marker (parts dropped). */
function clearedMessage(m: Message): Message {
  const copy: Message = {
    role: 'tool',
    content: clearedResultText(m.toolName, (m.content ?? '').length),
  };
  if (m.toolCallId !== undefined) copy.toolCallId = m.toolCallId;
  if (m.toolName !== undefined) copy.toolName = m.toolName;
  return copy;
}

/** The conversation position of `view.messages[index]` (an index past the replacement). Internal. */
export function positionOf(view: ContextView, index: number): number {
  return view.offset + (index - view.start - view.replaced);
}

/**
 * Where the verbatim tail of `view` starts: at the `turns`-th newest turn boundary (each user
 * message and each assistant message opens a turn; a call's results follow it, so a boundary
 * never separates them), never inside the replacement. `view.start` when nothing is older than
 * the kept turns. Internal.
 */
export function keepFrom(view: ContextView, turns: number): number {
  const first = view.start + view.replaced;
  let seen = 0;
  for (let i = view.messages.length - 1; i >= first; i--) {
    const role = view.messages[i]?.role;
    if (role !== 'user' && role !== 'assistant') continue;
    seen++;
    if (seen === turns) return i;
  }
  return view.start;
}
