import type { Message } from '../contract/message';
import type { CallScope, Model } from '../contract/model';
import type { Usage } from '../contract/usage';
import { describeError } from '../kit/error-base';
import type { CompactionInput, CompactionPolicy } from './compaction';
import { clearedResultText } from './context-view';

/** What one policy proposes: results to clear, or a replacement of the compactable prefix. Internal. */
export type Proposal =
  | { kind: 'clear'; ids: string[]; first: number; last: number }
  | { kind: 'replace'; replacement: Message[]; usage?: Usage };

/** The default instructions of the summariser. */
export const SUMMARY_INSTRUCTIONS =
  'You condense the earlier part of a conversation between a user and an AI assistant so the ' +
  'assistant can continue it. Write a concise summary that keeps every fact, decision, name, ' +
  'number, open question and commitment the assistant needs, the results of tool calls that ' +
  'still matter, and what the user asked for. Do not address the user. Answer with the summary only.';

/** How the summary opens the compacted conversation (the model reads it as earlier context). */
export function summaryMessage(text: string): Message {
  return {
    role: 'user',
    content: `<conversation_summary>\nThe earlier part of this conversation, summarised:\n${text}\n</conversation_summary>`,
  };
}

/**
 * `clear-tool-results`: the results in the compactable prefix (never a replacement's, never one
 * showing the marker already: `cleared` holds their indexes) whose content is longer than the marker, replaced by it; `undefined` when
 * there is none. Internal.
 */
export function proposeClear(
  input: CompactionInput,
  firstOriginal: number,
  cleared: ReadonlySet<number> = new Set(),
): Proposal | undefined {
  const ids: string[] = [];
  let first = -1;
  let last = -1;
  for (let i = firstOriginal; i < input.keepFrom; i++) {
    const m = input.messages[i] as Message;
    if (m.role !== 'tool' || m.toolCallId === undefined || cleared.has(i)) continue;
    const content = m.content ?? '';
    const marker = clearedResultText(m.toolName, content.length);
    if (content.length <= marker.length && (m.parts ?? []).length === 0) continue;
    ids.push(m.toolCallId);
    if (first < 0) first = i;
    last = i;
  }
  return ids.length === 0 ? undefined : { kind: 'clear', ids, first, last };
}

/**
 * `summarise`: one summary message, written by `model` from a plain-text transcript of the
 * compactable prefix (so no thinking block or signature reaches the summariser), replacing it.
 * Internal.
 */
export async function proposeSummary(
  input: CompactionInput,
  start: number,
  model: Model,
  options: { instructions: string; maxTokens: number },
  scope?: CallScope,
): Promise<Proposal | undefined> {
  const range = input.messages.slice(start, input.keepFrom);
  if (range.length === 0) return undefined;
  const response = await model.generate(
    {
      messages: [
        { role: 'system', content: options.instructions },
        { role: 'user', content: transcript(range) },
      ],
      tools: [],
      settings: { maxTokens: options.maxTokens },
    },
    scope === undefined ? { signal: input.signal } : { signal: input.signal, scope },
  );
  const text = typeof response.message.content === 'string' ? response.message.content.trim() : '';
  if (text === '') throw new Error(`the summariser ${model.name ?? 'model'} answered no text`);
  return { kind: 'replace', replacement: [summaryMessage(text)], usage: response.usage };
}

/** A conversation as plain text for the summariser: roles, text, calls and results. */
export function transcript(messages: readonly Message[]): string {
  const lines: string[] = [];
  for (const m of messages) {
    if (m.role === 'tool') {
      lines.push(`[tool result ${m.toolName ?? ''} ${m.toolCallId ?? ''}]: ${m.content ?? ''}`);
      continue;
    }
    let line = `${m.role}: ${m.content ?? ''}`;
    if ((m.parts ?? []).length > 0) line += ` [${(m.parts ?? []).length} attachment(s)]`;
    lines.push(line);
    for (const call of m.toolCalls ?? [])
      lines.push(`[tool call ${call.name} ${call.id}]: ${call.args}`);
  }
  return lines.join('\n');
}

/**
 * A custom policy's proposal, checked: no system message, thinking blocks dropped (a replacement
 * is not what any provider signed), and every call answered within it and every result called.
 * Internal.
 */
export async function proposeCustom(
  policy: CompactionPolicy,
  input: CompactionInput,
): Promise<Proposal | undefined> {
  const proposed = await policy.compact(input);
  if (proposed === undefined) return undefined;
  if (!Array.isArray(proposed.replacement))
    throw new TypeError(`compaction policy "${policy.name}" returned no replacement array`);
  const replacement = proposed.replacement.map((m) => {
    if (m.role === 'system')
      throw new TypeError(`compaction policy "${policy.name}" returned a system message`);
    if (m.thinking === undefined) return m;
    const { thinking: _dropped, ...rest } = m;
    return rest;
  });
  const problem = pairProblem(replacement);
  if (problem !== undefined)
    throw new TypeError(`compaction policy "${policy.name}" returned ${problem}`);
  return proposed.usage === undefined
    ? { kind: 'replace', replacement }
    : { kind: 'replace', replacement, usage: proposed.usage };
}

/** Why `messages` are not a self-contained conversation (a call without result or vice versa). */
export function pairProblem(messages: readonly Message[]): string | undefined {
  const open = new Set<string>();
  for (const m of messages) {
    if (m.role === 'tool') {
      if (m.toolCallId === undefined || !open.has(m.toolCallId))
        return `a tool result without its call (${describeError(m.toolCallId)})`;
      open.delete(m.toolCallId);
      continue;
    }
    if (open.size > 0) return `a tool call without its result (${[...open].join(', ')})`;
    for (const call of m.toolCalls ?? []) open.add(call.id);
  }
  return open.size > 0 ? `a tool call without its result (${[...open].join(', ')})` : undefined;
}
