import type { Message, Part } from '../core/index';

/** What a replay changes. */
export interface ReplayEdits {
  /** The assistant turn the replay starts at (what preceded it is kept). */
  readonly fromTurn: number;
  /** Replaces the text of the last user message kept. */
  readonly prompt?: string | undefined;
  /** Replaces the results of these calls (calls inside the kept history only). */
  readonly toolResults?: Readonly<Record<string, string>> | undefined;
}

/** How a replay starts: the history before its prompt, and the prompt (with its parts). */
export interface ReplayStart {
  /** The kept history (system messages dropped: the agent writes its own). */
  readonly history: Message[];
  /** The prompt the new run starts with ('' when the kept history ends in tool results). */
  readonly prompt: string;
  readonly parts: Part[];
  /** Calls named in `toolResults` that the kept history does not answer (ignored). */
  readonly ignored: string[];
}

/** Why a replay cannot start (a 400 text). */
export interface ReplayRefusal {
  readonly refused: string;
}

/**
 * The start of a replay of `messages` from assistant turn `edits.fromTurn`: the messages before
 * that turn's assistant message (turn 0: what preceded the first one), with `prompt` replacing
 * the last kept user message's text and `toolResults` replacing kept tool results. A trailing user
 * message becomes the new run's prompt (a run always appends its prompt). The input is not
 * changed. Returns a {@link ReplayRefusal} for a turn outside 0 … turns.
 */
export function replayStart(
  messages: readonly Message[],
  edits: ReplayEdits,
): ReplayStart | ReplayRefusal {
  const assistants: number[] = [];
  for (const [i, m] of messages.entries()) if (m.role === 'assistant') assistants.push(i);
  const { fromTurn } = edits;
  if (!Number.isSafeInteger(fromTurn) || fromTurn < 0 || fromTurn > assistants.length)
    return {
      refused: `fromTurn must be an integer from 0 to ${String(assistants.length)} (the run's turns)`,
    };
  const cut = fromTurn === assistants.length ? messages.length : (assistants[fromTurn] as number);
  const kept = messages.slice(0, cut).filter((m) => m.role !== 'system');
  const replaced = edits.toolResults ?? {};
  const answered = new Set<string>();
  const history = kept.map((message): Message => {
    const id = message.toolCallId;
    if (message.role === 'tool' && id !== undefined && Object.hasOwn(replaced, id)) {
      answered.add(id);
      return { ...message, content: replaced[id] };
    }
    return { ...message };
  });
  const lastUser = history.map((m) => m.role).lastIndexOf('user');
  if (edits.prompt !== undefined) {
    if (lastUser === -1) return { refused: 'the kept history has no user message to change' };
    history[lastUser] = { ...(history[lastUser] as Message), content: edits.prompt };
  }
  const ignored = Object.keys(replaced).filter((id) => !answered.has(id));
  const last = history[history.length - 1];
  if (last?.role === 'user') {
    history.pop();
    return { history, prompt: last.content ?? '', parts: [...(last.parts ?? [])], ignored };
  }
  return { history, prompt: '', parts: [], ignored };
}
