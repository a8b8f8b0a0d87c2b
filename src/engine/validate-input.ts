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
  for (const [i, message] of history.entries()) {
    const at = `history message ${i}`;
    if (typeof message !== 'object' || (message as unknown) === null)
      throw new RunInputError(`${at}: must be an object`);
    if (!ROLES.includes(message.role)) {
      throw new RunInputError(
        `${at}: role must be one of ${ROLES.join(', ')}, got ${showValue(message.role)}`,
      );
    }
    if (message.content !== undefined && typeof (message.content as unknown) !== 'string')
      throw new RunInputError(`${at}: content must be a string`);
    const parts = message.parts ?? [];
    if (parts.length > 0 && message.role !== 'user')
      throw new RunInputError(`${at}: parts are only supported on user messages`);
    for (const [j, part] of parts.entries()) {
      const problem = partProblem(part);
      if (problem !== undefined) throw new RunInputError(`${at} part ${j}: ${problem}`);
    }
    const thinking = message.thinking ?? [];
    if (thinking.length > 0 && message.role !== 'assistant') {
      throw new RunInputError(`${at}: thinking is only supported on assistant messages`);
    }
    for (const [j, block] of thinking.entries()) {
      const problem = thinkingProblem(block);
      if (problem !== undefined) throw new RunInputError(`${at} thinking block ${j}: ${problem}`);
    }
    for (const [j, call] of (message.toolCalls ?? []).entries()) {
      const { id, name, args } = call as unknown as Partial<Record<string, unknown>>;
      if (typeof id !== 'string' || typeof name !== 'string' || typeof args !== 'string') {
        throw new RunInputError(`${at}: toolCalls[${j}] needs string id, name and args`);
      }
    }
  }
}
