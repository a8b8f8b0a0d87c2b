import type { Message } from '../model/message';
import { ROLES } from '../model/message';
import type { Part } from '../model/part';
import { partProblem } from '../model/part';
import { thinkingProblem } from '../model/thinking';
import { isArrayValue } from '../model/guards';
import { showValue } from '../model/error-base';
import { RunInputError } from './errors';

/** Validates the prompt parts (spec §19.1); throws `RunInputError` naming the part. */
export function validatePromptParts(parts: readonly Part[]): void {
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

function validateMessage(message: Message, i: number): void {
  if (typeof message !== 'object' || (message as unknown) === null)
    throw new RunInputError(`${at(i)}: must be an object`);
  if (!ROLES.includes(message.role)) {
    throw new RunInputError(
      `${at(i)}: role must be one of ${ROLES.join(', ')}, got ${showValue(message.role)}`,
    );
  }
  if (message.content !== undefined && typeof (message.content as unknown) !== 'string')
    throw new RunInputError(`${at(i)}: content must be a string`);
  if (message.parts !== undefined) {
    const parts = message.parts ?? [];
    if (parts.length > 0 && message.role !== 'user')
      throw new RunInputError(`${at(i)}: parts are only supported on user messages`);
    for (const [j, part] of parts.entries()) {
      const problem = partProblem(part);
      if (problem !== undefined) throw new RunInputError(`${at(i)} part ${j}: ${problem}`);
    }
  }
  if (message.thinking !== undefined) {
    const thinking = message.thinking ?? [];
    if (thinking.length > 0 && message.role !== 'assistant') {
      throw new RunInputError(`${at(i)}: thinking is only supported on assistant messages`);
    }
    for (const [j, block] of thinking.entries()) {
      const problem = thinkingProblem(block);
      if (problem !== undefined)
        throw new RunInputError(`${at(i)} thinking block ${j}: ${problem}`);
    }
  }
  if (message.toolCalls === undefined) return;
  for (const [j, call] of (message.toolCalls ?? []).entries()) {
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
