import { GolemError, brandGuard } from '../kit/error-base';

/**
 * Why a run-store operation failed:
 * - `not-found`: no run (or conversation) has that id;
 * - `conflict`: another process holds the run's lease, changed the run since it was read, or runs
 *   on the conversation; retry after it finishes (a dead process's lease expires);
 * - `invalid-state`: the run cannot do that now (resuming a completed run, approving a run that
 *   is not paused);
 * - `corrupt`: stored data does not decode or the database file is damaged — nothing was
 *   changed, restore or repair it;
 * - `schema-too-new`: the database was migrated by a newer golem;
 * - `schema-outdated`: the database needs `migrate()` and the store was opened with `migrate: false`;
 * - `unavailable`: the database could not be reached or the connection dropped (retryable);
 * - `driver-missing`: the optional driver package is not installed;
 * - `invalid-options`: the store was configured wrongly;
 * - `invalid-input`: a value given to the store is malformed (a recall store's vector of the wrong
 *   size or with a non-finite number, an empty owner) — fix the caller, retrying cannot help;
 * - `closed`: the store was used after `close()`;
 * - `failed`: any other database failure (the driver's error is the `cause`).
 * @inline
 */
export type StoreErrorReason =
  | 'not-found'
  | 'conflict'
  | 'invalid-state'
  | 'corrupt'
  | 'schema-too-new'
  | 'schema-outdated'
  | 'unavailable'
  | 'driver-missing'
  | 'invalid-options'
  | 'invalid-input'
  | 'closed'
  | 'failed';

/** How many characters of an id or value a message quotes; the rest is counted, not shown. */
export const QUOTE_LIMIT = 100;

/**
 * Characters JSON leaves raw that still break or disguise a log line: DEL, C1 controls, line and
 * paragraph separators, bidirectional controls, the byte-order mark.
 */
const UNSAFE = /[\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069\ufeff]/g;

/**
 * An id or a value as an error message quotes it: a JSON string (control characters, quotes and
 * line breaks escaped, so it stays on one log line), cut after {@link QUOTE_LIMIT} characters
 * with the full length noted — `"run-1"`, `"aaaa"… (1048576 characters)`. A value that is not
 * a string is named by its type (`a number (5)`, `an object`), never serialised. Internal.
 */
export function quote(value: unknown): string {
  if (typeof value !== 'string') {
    if (value === null || value === undefined) return String(value);
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint')
      return `a ${typeof value} (${String(value)})`;
    if (Array.isArray(value)) return 'an array';
    return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
  }
  let shown = value;
  if (value.length > QUOTE_LIMIT) {
    const cut = /[\ud800-\udbff]/.test(value.charAt(QUOTE_LIMIT - 1))
      ? QUOTE_LIMIT - 1
      : QUOTE_LIMIT;
    shown = value.slice(0, cut);
  }
  const text = JSON.stringify(shown).replace(
    UNSAFE,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return shown === value ? text : `${text}… (${value.length} characters)`;
}

/**
 * What a {@link StoreError} is built from.
 * @inline
 */
export interface StoreErrorInit {
  reason: StoreErrorReason;
  /** The run concerned, when one is. */
  runId?: string;
  /** The conversation concerned, when one is. */
  conversationId?: string;
  /** Whether retrying the same operation later may succeed; default: `reason === 'unavailable'`. */
  retryable?: boolean;
  cause?: unknown;
}

/**
 * A run store failed. `reason` says why; `runId`/`conversationId` name the record; `retryable`
 * says whether trying again later may work (a dropped connection) — the run stays resumable from
 * its last checkpoint. Messages never contain credentials.
 */
export class StoreError extends GolemError {
  readonly reason: StoreErrorReason;
  readonly runId: string | undefined;
  readonly conversationId: string | undefined;
  readonly retryable: boolean;

  constructor(message: string, init: StoreErrorInit) {
    super('StoreError', message, init.cause === undefined ? undefined : { cause: init.cause });
    this.reason = init.reason;
    this.runId = init.runId;
    this.conversationId = init.conversationId;
    this.retryable = init.retryable ?? init.reason === 'unavailable';
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<StoreError>('StoreError');

  /** Whether `value` is a `StoreError` with `reason` (e.g. `StoreError.isReason(e, 'conflict')`). */
  static isReason(value: unknown, reason: StoreErrorReason): value is StoreError {
    return StoreError.is(value) && value.reason === reason;
  }
}
