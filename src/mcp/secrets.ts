import { redactLiterals, secretForms } from '../core/kit/redaction';

const MAX_DEPTH = 8;

/**
 * The secrets of an HTTP transport: every configured header value (and, for an
 * `<scheme> <credentials>` value such as `Bearer abc`, the credentials alone) and the values of
 * the URL's query parameters, each in every form it may take (as given, trimmed, JSON-escaped,
 * URL-encoded). Longest first, so a secret containing another is replaced whole.
 */
export function transportSecrets(headers: Readonly<Record<string, string>>, url: URL): string[] {
  const candidates: string[] = [];
  for (const value of Object.values(headers)) {
    const trimmed = value.trim();
    candidates.push(trimmed);
    const credentials = /^[A-Za-z][\w.+-]*\s+(\S.*)$/s.exec(trimmed)?.[1];
    if (credentials !== undefined) candidates.push(credentials);
  }
  for (const value of url.searchParams.values()) candidates.push(value);
  return secretForms(candidates);
}

/** `text` with every occurrence of each secret (as listed) replaced by `[redacted]`. */
export function redactText(text: string, secrets: readonly string[]): string {
  return redactLiterals(text, secrets);
}

/**
 * Removes `secrets` from an error in place: its message, stack and other string properties,
 * the data it carries (e.g. a server's JSON-RPC error data) and its whole `cause` chain (and
 * `errors` of an `AggregateError`). Returns the same error.
 */
export function redactError<T>(error: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return error;
  return scrub(error, secrets, new Set(), 0) as T;
}

function scrub(
  value: unknown,
  secrets: readonly string[],
  seen: Set<object>,
  depth: number,
): unknown {
  if (typeof value === 'string') return redactText(value, secrets);
  if (typeof value !== 'object' || value === null || depth > MAX_DEPTH || seen.has(value)) {
    return value;
  }
  seen.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => scrub(item, secrets, seen, depth + 1));
    if (value instanceof Error) return scrubError(value, secrets, seen, depth);
    const proto: unknown = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) return value;
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, scrub(v, secrets, seen, depth + 1)]),
    );
  } catch {
    // A value that cannot be inspected (a hostile getter or proxy) is left as it is.
    return value;
  }
}

/**
 * Scrubs an error's own writable properties in place. An error whose message still shows a
 * secret afterwards (a message getter, a frozen object) is replaced by a plain copy.
 */
function scrubError(
  error: Error,
  secrets: readonly string[],
  seen: Set<object>,
  depth: number,
): Error {
  for (const key of Object.getOwnPropertyNames(error)) {
    const descriptor = Object.getOwnPropertyDescriptor(error, key);
    if (descriptor === undefined || !('value' in descriptor)) continue;
    const next = scrub(descriptor.value, secrets, seen, depth + 1);
    if (next === descriptor.value) continue;
    try {
      (error as unknown as Record<string, unknown>)[key] = next;
    } catch {
      // Read-only: checked below.
    }
  }
  const message = textOf(error.message);
  const stack = textOf(error.stack);
  if (redactText(message, secrets) === message && redactText(stack, secrets) === stack) {
    return error;
  }
  const copy = new Error(redactText(message, secrets), { cause: error.cause });
  copy.name = error.name;
  copy.stack = redactText(stack, secrets);
  return copy;
}

function textOf(value: unknown): string {
  return typeof value === 'string' ? value : '';
}
