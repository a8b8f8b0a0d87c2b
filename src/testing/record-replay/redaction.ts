import { redact } from '../../core/kit/redact';

/** What replaces a secret value in a fixture. */
export const REDACTED = '[redacted]';

/** Request headers that carry credentials in the adapters golem ships; never recorded. */
export const CREDENTIAL_HEADERS: readonly string[] = [
  'authorization',
  'proxy-authorization',
  'x-api-key',
  'api-key',
  'x-goog-api-key',
  'x-amz-security-token',
  'cookie',
];

/** Any other header whose name looks like a credential is dropped as well. */
const CREDENTIAL_NAME = /auth|key|token|secret|cookie|session|credential|signature|password/i;

/** Per-call noise (dates, invocation ids, SDK versions) left out so re-recordings diff cleanly. */
const NOISY_REQUEST_HEADERS = new Set([
  'content-length',
  'host',
  'user-agent',
  'x-amz-user-agent',
  'x-amz-date',
  'x-amz-content-sha256',
  'amz-sdk-invocation-id',
  'amz-sdk-request',
]);

/** Query parameters whose values are credentials (Gemini's `key=`, SAS signatures, tokens). */
const SECRET_QUERY = new Set([
  'key',
  'api-key',
  'api_key',
  'apikey',
  'access_token',
  'token',
  'sig',
  'signature',
  'x-amz-signature',
  'x-amz-security-token',
  'x-amz-credential',
]);

/** Response headers kept by default: what adapters read (content type, retry hints, error type). */
export const KEPT_RESPONSE_HEADERS: readonly string[] = [
  'content-type',
  'retry-after',
  'retry-after-ms',
  'x-amzn-errortype',
  'x-should-retry',
];

/** Request headers split into what is recorded and the credential values dropped. */
export interface SplitHeaders {
  kept: Record<string, string>;
  /** Values of the dropped credential headers (and their token part), to redact everywhere. */
  secrets: string[];
}

/** Drops credential headers (built-in list, name pattern and `extra`) and per-call noise. */
export function splitRequestHeaders(
  entries: Iterable<readonly [string, string]>,
  extra: ReadonlySet<string>,
): SplitHeaders {
  const kept: Record<string, string> = {};
  const secrets: string[] = [];
  for (const [rawName, value] of entries) {
    const name = rawName.toLowerCase();
    if (CREDENTIAL_HEADERS.includes(name) || CREDENTIAL_NAME.test(name) || extra.has(name)) {
      secrets.push(value);
      const token = /^\s*[A-Za-z0-9-]+\s+(\S+)\s*$/.exec(value)?.[1];
      if (token !== undefined) secrets.push(token);
    } else if (!NOISY_REQUEST_HEADERS.has(name)) kept[name] = value;
  }
  return { kept, secrets };
}

/** Keeps the allowed response headers (lower-cased names), their values redacted. */
export function keptResponseHeaders(
  entries: Iterable<readonly [string, string]>,
  allowed: ReadonlySet<string>,
  secrets: readonly string[],
): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [rawName, value] of entries) {
    const name = rawName.toLowerCase();
    if (allowed.has(name)) kept[name] = redact(value, secrets);
  }
  return kept;
}

/** The URL with secret query values replaced by {@link REDACTED} and any known secret removed. */
export function redactUrl(url: string, secrets: readonly string[]): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return redact(url, secrets);
  }
  for (const name of [...parsed.searchParams.keys()])
    if (SECRET_QUERY.has(name.toLowerCase())) parsed.searchParams.set(name, REDACTED);
  if (parsed.username !== '' || parsed.password !== '') {
    parsed.username = '';
    parsed.password = '';
  }
  return redact(parsed.href, secrets);
}

/** The path and query of a URL (what replay compares; the origin is configuration). */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/** A deep copy of a JSON value with every secret removed from its strings and keys. */
export function redactValue(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === 'string') return redact(value, secrets);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, secrets));
  if (typeof value === 'object' && value !== null)
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        redact(key, secrets),
        redactValue(item, secrets),
      ]),
    );
  return value;
}

/** Whether `text` still holds a secret (4 characters or longer), in any form redaction knows. */
export function holdsSecret(text: string, secrets: readonly string[]): boolean {
  return redact(text, secrets) !== text;
}

export { redact };
