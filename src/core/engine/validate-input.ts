import type { Message } from '../contract/message';
import { ROLES } from '../contract/message';
import type { Part } from '../contract/part';
import { partProblem } from '../contract/part';
import { thinkingProblem } from '../contract/thinking';
import { isArrayValue } from '../kit/guards';
import { showValue } from '../kit/error-base';
import { RunInputError } from './errors';

/** Validates the prompt parts (spec §19.1); throws `RunInputError` naming the part. */
export function validatePromptParts(parts: readonly Part[]): void {
  if (parts.length === 0) return; // most prompts have none: no iterator per run
  for (const [i, part] of parts.entries()) {
    const problem =
      typeof part === 'object' && (part as unknown) !== null
        ? partProblem(part)
        : 'part must be an object';
    if (problem !== undefined) throw new RunInputError(`prompt part ${i}: ${problem}`);
  }
}

/**
 * Validates history messages at run start: shape, parts only on user messages, thinking only on
 * assistant messages, each part and block valid. Throws `RunInputError` naming message and field.
 */
export function validateHistory(history: readonly Message[]): void {
  if (!isArrayValue(history)) throw new RunInputError('history must be an array of messages');
  // An index loop, and the optional lists read only when present: every run validates its whole
  // history, and most messages carry none of them (no iterator or empty array per message).
  for (let i = 0; i < history.length; i++) validateMessage(history[i] as Message, i);
}

/** Validates history message `i` (see {@link validateHistory}). Internal. */
export function validateMessage(message: Message, i: number): void {
  if (typeof message !== 'object' || (message as unknown) === null)
    throw new RunInputError(`${at(i)}: must be an object`);
  // Each field read once, in the order the checks need them (every run validates its history).
  const role: unknown = message.role;
  if (role !== 'user' && role !== 'assistant' && role !== 'tool' && role !== 'system') {
    throw new RunInputError(
      `${at(i)}: role must be one of ${ROLES.join(', ')}, got ${showValue(role)}`,
    );
  }
  const content = message.content;
  if (content !== undefined && typeof (content as unknown) !== 'string')
    throw new RunInputError(`${at(i)}: content must be a string`);
  const parts = message.parts as Part[] | null | undefined;
  if (parts !== undefined) {
    const list = parts ?? [];
    if (list.length > 0 && role !== 'user')
      throw new RunInputError(`${at(i)}: parts are only supported on user messages`);
    for (const [j, part] of list.entries()) {
      const problem = partProblem(part);
      if (problem !== undefined) throw new RunInputError(`${at(i)} part ${j}: ${problem}`);
    }
  }
  const thinking = message.thinking as Message['thinking'] | null;
  if (thinking !== undefined) {
    const list = thinking ?? [];
    if (list.length > 0 && role !== 'assistant') {
      throw new RunInputError(`${at(i)}: thinking is only supported on assistant messages`);
    }
    for (const [j, block] of list.entries()) {
      const problem = thinkingProblem(block);
      if (problem !== undefined)
        throw new RunInputError(`${at(i)} thinking block ${j}: ${problem}`);
    }
  }
  const toolCalls = message.toolCalls as Message['toolCalls'] | null;
  if (toolCalls === undefined) return;
  for (const [j, call] of (toolCalls ?? []).entries()) {
    const { id, name, args } = call as unknown as Partial<Record<string, unknown>>;
    if (typeof id !== 'string' || typeof name !== 'string' || typeof args !== 'string') {
      throw new RunInputError(`${at(i)}: toolCalls[${j}] needs string id, name and args`);
    }
  }
}

/** How errors name history message `i` (built only when one is thrown). */
function at(i: number): string {
  return `history message ${i}`;
}
