import type { Message } from '../contract/message';
import { isArrayValue } from '../kit/guards';
import { RunInputError } from './errors';
import { repairHistory } from './repair';
import { validateMessage } from './validate-input';

/**
 * Checked histories (issue 35's validated-history handles). A run copies, validates and repairs
 * the history it is given, every run, so that nothing the caller does to its array afterwards can
 * alter the run's evidence and no malformed message reaches a provider. A checked history keeps
 * both guarantees once for all: its messages were copied, validated and repaired when it was made,
 * and it is frozen, messages included, so it cannot change afterwards. A run given one uses it as
 * it is — no copy, no validation, no repair — and carrying a long history costs one reference per
 * message. Nothing else is trusted: a plain array (however often passed) is checked every run.
 */

/**
 * The checked histories made in this process (an array is checked once, when made), each with its
 * body: its messages other than system ones, in an array of the engine's own that no caller can
 * reach. A run's first request starts with a copy of the body, not of the history: V8 copies a
 * frozen array element by element (~8 ns each), a plain one in one step (~1 ns each).
 */
const CHECKED_HISTORIES = new WeakMap<readonly Message[], readonly Message[]>();
/** The messages of checked histories: frozen, valid, reused as they are by the next one. */
const CHECKED_MESSAGES = new WeakSet<Message>();

/** Whether `history` is a checked history (made by {@link checkedHistory}). Internal. */
export function isCheckedHistory(history: readonly Message[]): boolean {
  return CHECKED_HISTORIES.has(history);
}

/**
 * The messages of a checked history that a request carries (all but its system messages), in an
 * array never handed out (copy it, never change it); `undefined` for any other array. Internal.
 */
export function checkedBody(history: readonly Message[]): readonly Message[] | undefined {
  return CHECKED_HISTORIES.get(history);
}

/**
 * `messages` as a checked history: validated (a `RunInputError` naming the message and field),
 * copied, repaired (spec §17.3), and frozen deeply. Messages of an earlier checked history are
 * reused as they are, so checking a conversation that grew by a few messages checks only those.
 * A checked history is returned as it is. Internal (public as `Agent.history` and
 * `result.history`).
 */
export function checkedHistory(messages: readonly Message[]): readonly Message[] {
  if (!isArrayValue(messages)) throw new RunInputError('history must be an array of messages');
  if (CHECKED_HISTORIES.has(messages)) return messages;
  // Only messages no checked history holds yet are validated (each named by its position).
  for (let i = 0; i < messages.length; i++) {
    const message = messages[i] as Message;
    if (!CHECKED_MESSAGES.has(message)) validateMessage(message, i);
  }
  const copies: Message[] = [];
  for (const message of messages)
    copies.push(CHECKED_MESSAGES.has(message) ? message : frozenCopy(message));
  const repaired = repairHistory(copies);
  for (const message of repaired)
    if (!CHECKED_MESSAGES.has(message)) CHECKED_MESSAGES.add(deepFreeze(message));
  const body = repaired.filter((message) => message.role !== 'system');
  const history = Object.freeze(repaired === copies ? copies : [...repaired]);
  CHECKED_HISTORIES.set(history, body);
  return history;
}

/**
 * Gives a result built outside the engine (a stored run's, a workflow step's) the `history`
 * property an engine result has: its `messages` as a checked history, made on first read, not
 * enumerable. Returns `result`. Internal.
 */
export function attachHistory<R extends { readonly messages: readonly Message[] }>(result: R): R {
  Object.defineProperty(result, 'history', {
    configurable: true,
    enumerable: false,
    get(this: R) {
      const value = checkedHistory(this.messages);
      Object.defineProperty(this, 'history', { value, configurable: true, enumerable: false });
      return value;
    },
  });
  return result;
}

/**
 * A deep copy of a validated message (nothing in it shared with the caller's), frozen and known
 * as checked.
 */
function frozenCopy(message: Message): Message {
  const copy = deepFreeze(structuredClone(message));
  CHECKED_MESSAGES.add(copy);
  return copy;
}

/**
 * Freezes `value` and every object and array under it. Binary data (a part's bytes) cannot be
 * frozen; the copy owns its bytes, which nothing else references.
 */
function deepFreeze<T>(value: T): T {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value)) return value;
  if (Object.isFrozen(value)) return value;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}
