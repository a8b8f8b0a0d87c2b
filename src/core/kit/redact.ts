import { redactSecrets } from './redaction';

/** How deep a `cause` chain is copied; deeper links are cut. */
const MAX_CAUSE_DEPTH = 8;

/**
 * Replaces every secret in `text` (in every form it may take: as given, trimmed, JSON-escaped,
 * URL-encoded) with `[redacted]`; secrets shorter than 4 characters are left alone.
 */
export function redact(text: string, secrets: readonly string[] | undefined): string {
  return secrets === undefined ? text : redactSecrets(text, secrets);
}

/** A copy of a thrown value made safe to show: its message and whole cause chain redacted. */
export class RedactedCause extends Error {
  /** The original error's name (`TypeError`, `AbortError`, …). */
  readonly originalName: string;
  /** The original error's `code` (`ECONNRESET`, `UND_ERR_SOCKET`, …), when it had one. */
  readonly code: string | undefined;

  constructor(name: string, message: string, code: string | undefined, cause: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = name;
    this.originalName = name;
    this.code = code;
  }
}

/**
 * Copies `value` and its `cause` chain into `RedactedCause`s whose messages have every
 * secret removed, so a transport failure can be attached as `cause` without carrying a key
 * (undici quotes an invalid header value, key included, in its TypeError). Reading the value
 * never throws: hostile getters and revoked proxies give a placeholder text.
 */
export function redactCause(value: unknown, secrets: readonly string[] | undefined): unknown {
  return copy(value, secrets, 0);
}

function copy(value: unknown, secrets: readonly string[] | undefined, depth: number): unknown {
  if (value === undefined || value === null) return value;
  if (depth >= MAX_CAUSE_DEPTH) return undefined;
  const name = read(value, 'name');
  const message = read(value, 'message');
  const code = read(value, 'code');
  let cause: unknown;
  try {
    cause = (value as { cause?: unknown }).cause;
  } catch {
    cause = undefined;
  }
  return new RedactedCause(
    typeof name === 'string' ? name : 'Error',
    redact(typeof message === 'string' ? message : safeString(value), secrets),
    typeof code === 'string' ? redact(code, secrets) : undefined,
    copy(cause, secrets, depth + 1),
  );
}

function read(value: unknown, key: string): unknown {
  if (typeof value !== 'object' && typeof value !== 'function') return undefined;
  try {
    return (value as Record<string, unknown>)[key];
  } catch {
    return undefined;
  }
}

function safeString(value: unknown): string {
  try {
    return typeof value === 'string' ? value : String(value);
  } catch {
    return '(unprintable value)';
  }
}

/** The text of a transport failure and its inner cause, redacted, for an error message. */
export function describeTransportFailure(
  cause: unknown,
  secrets: readonly string[] | undefined,
): string {
  const outer = read(cause, 'message');
  const innerCause = read(cause, 'cause');
  const inner = read(innerCause, 'message');
  const text =
    typeof outer !== 'string'
      ? safeString(cause)
      : typeof inner === 'string' && inner !== ''
        ? `${outer} (${inner})`
        : outer;
  return redact(text, secrets);
}
