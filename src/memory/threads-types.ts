import type { Message } from '../core/contract/message';
import type { JsonValue } from '../core/kit/json';

/**
 * Who a {@link Threads} call speaks for. `owner` is required on purpose: pass the tenant or user
 * key the request speaks for; `owner: undefined` (written out) is an operator's unscoped access.
 * A thread of another owner is reported exactly like a missing one.
 */
export interface ThreadScope {
  /** The tenant or user key (1–200 characters, no control characters), or `undefined`: any owner. */
  owner: string | undefined;
}

/**
 * A position in a thread listing: the listing continues after this thread. Pass the last
 * thread of the previous page (a {@link Thread} has both fields).
 */
export interface ThreadCursor {
  updatedAt: number;
  id: string;
}

/** A thread (a stored conversation with a title, metadata and an owner), without its messages. */
export interface Thread {
  id: string;
  /** Who the thread belongs to; `undefined` when it has no owner. */
  owner: string | undefined;
  title: string | undefined;
  /** A JSON object of the application's own fields; `undefined` when none were set. */
  metadata: Record<string, JsonValue> | undefined;
  /** The run that has the thread now (running or paused), if any. */
  activeRunId: string | undefined;
  /** Milliseconds since the epoch. */
  createdAt: number;
  /** The last write: a run starting or finishing on it, a rename, new metadata. */
  updatedAt: number;
  /** Incremented by every write of the thread. */
  version: number;
}

/** A thread with its messages: every message of every completed run on it (no system messages). */
export interface ThreadWithMessages extends Thread {
  messages: Message[];
}

/** Options of {@link Threads.list}. */
export interface ThreadListOptions extends ThreadScope {
  /** At most this many threads (1–1000), newest `updatedAt` first; default 100. */
  limit?: number;
  /** Only threads listed after this one: pass the last thread of the previous page. */
  before?: ThreadCursor;
}

/** Options of {@link Threads.search}. */
export interface ThreadSearchOptions extends ThreadListOptions {
  /**
   * The text to find (1–200 characters, no control characters) in the title or in a user or
   * assistant message's text; ASCII letters compare case-insensitively, everything else exactly.
   */
  text: string;
}

/** Options of {@link Threads.create}. */
export interface ThreadCreateOptions extends ThreadScope {
  /** The thread's id (1–200 printable ASCII characters, no spaces); default a random UUID. */
  id?: string;
  /** 1–200 characters, no control characters. */
  title?: string;
  /** A JSON object; at most 16 384 characters as JSON. */
  metadata?: Record<string, JsonValue>;
}

/** Options of {@link Threads.fork}. */
export interface ThreadForkOptions extends ThreadScope {
  /**
   * How many messages the fork keeps: messages `[0, atMessage)` of the thread. It must not fall
   * between a tool call and its result (a `RunInputError` names the nearest cuts that do not).
   */
  atMessage: number;
  /** The fork's id; default a random UUID. */
  id?: string;
  /** The fork's title; default the thread's title followed by ` (fork)`. */
  title?: string;
}
