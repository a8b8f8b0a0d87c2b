import type { Message } from '../core/contract/message';
import { checkOwner } from '../core/durable/access';
import { quote } from '../core/durable/store-error';
import { RunInputError } from '../core/engine/errors';
import { isRecord } from '../core/kit/guards';
import type { ThreadCursor, ThreadScope } from './threads-types';

/** How the threads API validates what callers pass. Internal. */

/** The longest title, in characters. */
export const TITLE_MAX = 200;
/** The most characters metadata may take as JSON. */
export const METADATA_MAX = 16_384;
/** The deepest nesting metadata may have. */
const METADATA_DEPTH = 16;
/** The default and largest page of a listing. */
export const THREAD_LIMIT = 100;
const THREAD_LIMIT_MAX = 1_000;

const ID = /^[\x21-\x7e]{1,200}$/;
const CONTROL = /\p{Cc}/u;
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** The scope's owner, checked; the options object itself must name `owner`. */
export function checkScope(method: string, scope: unknown): string | undefined {
  if (typeof scope !== 'object' || scope === null || !('owner' in scope))
    throw new RunInputError(
      `threads.${method} needs { owner }: the tenant or user key the request speaks for (owner: undefined is unscoped operator access)`,
    );
  return checkOwner((scope as ThreadScope).owner);
}

/** A thread id: 1–200 printable ASCII characters without spaces (as a run's `conversation`). */
export function checkThreadId(id: unknown, what = 'thread id'): string {
  if (typeof id !== 'string' || !ID.test(id))
    throw new RunInputError(
      `${what} must be 1–200 printable ASCII characters without spaces, got ${quote(id)}`,
    );
  return id;
}

/** Text a caller gives (a title, a search): 1–`max` characters, no control characters. */
export function checkText(what: string, text: unknown, max = TITLE_MAX): string {
  if (
    typeof text !== 'string' ||
    text.length === 0 ||
    text.length > max ||
    CONTROL.test(text) ||
    LONE_SURROGATE.test(text)
  )
    throw new RunInputError(
      `${what} must be a string of 1–${max} characters without control characters, got ${quote(text)}`,
    );
  return text;
}

/** A listing limit: an integer 1–1000; default {@link THREAD_LIMIT}. */
export function checkLimit(limit: unknown): number {
  if (limit === undefined) return THREAD_LIMIT;
  if (
    typeof limit !== 'number' ||
    !Number.isInteger(limit) ||
    limit < 1 ||
    limit > THREAD_LIMIT_MAX
  )
    throw new RunInputError(
      `limit must be an integer from 1 to ${THREAD_LIMIT_MAX}, got ${quote(limit)}`,
    );
  return limit;
}

/** A listing cursor: `{ updatedAt, id }` of a thread, or `undefined`. */
export function checkCursor(before: unknown): ThreadCursor | undefined {
  if (before === undefined) return undefined;
  const cursor = isRecord(before) ? before : {};
  if (
    typeof cursor.id !== 'string' ||
    typeof cursor.updatedAt !== 'number' ||
    !Number.isSafeInteger(cursor.updatedAt)
  )
    throw new RunInputError(
      'before must be { updatedAt, id } of a thread: pass the last thread of the previous page',
    );
  return { updatedAt: cursor.updatedAt, id: cursor.id };
}

/** Metadata as stored JSON text: a plain JSON object of at most {@link METADATA_MAX} characters. */
export function metadataJson(metadata: unknown): string {
  const problem = jsonProblem(metadata, 'metadata', 0, true);
  if (problem !== undefined)
    throw new RunInputError(`${problem}; metadata must be a plain JSON object`);
  const text = JSON.stringify(metadata);
  if (text.length > METADATA_MAX)
    throw new RunInputError(
      `metadata is ${text.length} characters as JSON; the limit is ${METADATA_MAX} — keep large data elsewhere and store its key`,
    );
  return text;
}

/** Why `value` is not plain JSON (at `path`), or `undefined`. */
function jsonProblem(value: unknown, path: string, depth: number, top = false): string | undefined {
  if (depth > METADATA_DEPTH) return `${path} nests deeper than ${METADATA_DEPTH} levels`;
  if (value === null || typeof value === 'string' || typeof value === 'boolean')
    return top ? `${path} is not an object` : undefined;
  if (typeof value === 'number')
    return top
      ? `${path} is not an object`
      : Number.isFinite(value)
        ? undefined
        : `${path} is not a finite number`;
  if (Array.isArray(value)) {
    if (top) return `${path} is an array`;
    for (let i = 0; i < value.length; i++) {
      const problem = jsonProblem(value[i] as unknown, `${path}[${i}]`, depth + 1);
      if (problem !== undefined) return problem;
    }
    return undefined;
  }
  if (typeof value !== 'object') return `${path} is ${quote(value)}`;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return `${path} is not a plain object`;
  for (const [key, item] of Object.entries(value)) {
    const problem = jsonProblem(item, `${path}.${key}`, depth + 1);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

/** The title of a fork of a thread titled `title`: `"<title> (fork)"`, cut to fit. */
export function forkTitle(title: string | undefined): string | undefined {
  if (title === undefined) return undefined;
  const suffix = ' (fork)';
  let base = title.slice(0, TITLE_MAX - suffix.length);
  if (/[\ud800-\udbff]$/.test(base)) base = base.slice(0, -1);
  return `${base}${suffix}`;
}

/**
 * Checks that keeping messages `[0, at)` cuts no tool call from its result; a `RunInputError`
 * naming the nearest cuts before and after that do not.
 */
export function checkCut(messages: readonly Message[], at: unknown): number {
  if (typeof at !== 'number' || !Number.isInteger(at) || at < 0 || at > messages.length)
    throw new RunInputError(
      `atMessage must be an integer from 0 to ${messages.length} (the thread's message count), got ${quote(at)}`,
    );
  const valid = validCuts(messages);
  if (valid[at] === true) return at;
  let below = at;
  while (valid[below] !== true) below--;
  let above = at;
  while (above < messages.length && valid[above] !== true) above++;
  const after = valid[above] === true ? ` or ${above} (after its results)` : '';
  throw new RunInputError(
    `atMessage ${at} falls between a tool call and its result; fork at ${below} (before the call)${after}`,
  );
}

/** For each cut 0…length, whether every tool call before it has its result before it too. */
function validCuts(messages: readonly Message[]): boolean[] {
  const open = new Set<string>();
  const valid = [true];
  for (const message of messages) {
    for (const call of message.toolCalls ?? []) open.add(call.id);
    if (message.role === 'tool' && message.toolCallId !== undefined)
      open.delete(message.toolCallId);
    valid.push(open.size === 0);
  }
  return valid;
}
