import { isRecord } from '../../core/kit/guards';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ModelSettings } from '../../core/contract/request';
import { MAX_TIMEOUT_MS } from '../../core/kit/timeouts';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../shared/body';
import type { FetchLike } from '../../core/contract/fetch';
import type { MaxTokensField, OpenAICapabilities } from './presets';
import { validateSettings } from './settings';

/** Default call timeout: 5 minutes (spec §25). */
export const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;

/** Options every chat-completions adapter (OpenAI-compatible, Azure) accepts. */
export interface CommonChatOptions {
  /** Extra request headers, sent after the adapter's own (they can override them). */
  headers?: Record<string, string>;
  /** The `fetch` used for every call; inject one to record, proxy or test. */
  fetch?: FetchLike;
  /** Send tools with `strict: true` and their schemas compiled to OpenAI's strict dialect. */
  strictSchemas?: boolean;
  /** Default request settings, validated now; a request's own settings override them field by field. */
  settings?: ModelSettings;
  /** The body field `maxTokens` is sent as (`max_completion_tokens` for OpenAI reasoning models). */
  maxTokensField?: MaxTokensField;
  /** Overrides of what the endpoint is assumed to accept. */
  capabilities?: Partial<OpenAICapabilities>;
  /**
   * Milliseconds the whole call (request, response, stream) may take before it fails with a
   * retryable `ModelTransportError`; default 5 minutes, 0 = none.
   */
  timeout?: number;
  /** Longest accepted server-sent-event line in bytes (default: the shared reader's 8 MiB). */
  maxLineBytes?: number;
  /** Largest accepted non-streaming response body in bytes (`ResponseTooLargeError`); default 32 MiB. */
  maxResponseBytes?: number;
  /**
   * Milliseconds an error response's body may take to arrive before the `ModelHTTPError` is
   * reported without it (status and `Retry-After` intact); default 5 s.
   */
  errorBodyTimeout?: number;
}

/** Validated common options. */
export interface CheckedCommon {
  headers: Record<string, string>;
  fetch: FetchLike | undefined;
  strictSchemas: boolean;
  settings: ModelSettings | undefined;
  capabilities: OpenAICapabilities;
  maxTokensField: MaxTokensField;
  timeout: number;
  maxLineBytes: number | undefined;
  maxResponseBytes: number;
  errorBodyTimeout: number | undefined;
}

/** Validates the common options against `base` capabilities; throws a model `ConfigError`. */
export function checkCommon(
  provider: string,
  options: CommonChatOptions,
  base: OpenAICapabilities,
  maxTokensField: MaxTokensField,
): CheckedCommon {
  const { headers, fetch, strictSchemas, settings, capabilities, timeout, maxLineBytes } = options;
  if (headers !== undefined && (!isRecord(headers) || Object.values(headers).some(notString)))
    throw modelConfigError(provider, 'headers must be an object of string values');
  if (fetch !== undefined && typeof fetch !== 'function')
    throw modelConfigError(provider, 'fetch must be a function');
  if (strictSchemas !== undefined && typeof strictSchemas !== 'boolean')
    throw modelConfigError(provider, 'strictSchemas must be a boolean');
  validateSettings(provider, settings);
  if (capabilities !== undefined && !isRecord(capabilities))
    throw modelConfigError(provider, 'capabilities must be an object');
  const merged: OpenAICapabilities = { ...base };
  for (const [key, value] of Object.entries(capabilities ?? {})) {
    if (!(key in base)) throw modelConfigError(provider, `unknown capability "${key}"`);
    if (typeof value !== 'boolean')
      throw modelConfigError(provider, `capabilities.${key} must be a boolean`);
    (merged as unknown as Record<string, boolean>)[key] = value;
  }
  const field: unknown = options.maxTokensField ?? maxTokensField;
  if (field !== 'max_tokens' && field !== 'max_completion_tokens')
    throw modelConfigError(
      provider,
      'maxTokensField must be "max_tokens" or "max_completion_tokens"',
    );
  if (strictSchemas === true && !merged.strictTools)
    throw modelConfigError(
      provider,
      'strictSchemas needs strict function tools, which this endpoint is not known to accept (set capabilities.strictTools to override)',
    );
  return {
    headers: { ...(headers ?? {}) },
    fetch,
    strictSchemas: strictSchemas === true,
    settings,
    capabilities: merged,
    maxTokensField: field,
    timeout: checkTimer(provider, 'timeout', timeout, 0) ?? DEFAULT_TIMEOUT_MS,
    maxLineBytes: checkCount(provider, 'maxLineBytes', maxLineBytes, 1),
    maxResponseBytes:
      checkCount(provider, 'maxResponseBytes', options.maxResponseBytes, 1) ??
      DEFAULT_MAX_RESPONSE_BYTES,
    errorBodyTimeout: checkTimer(provider, 'errorBodyTimeout', options.errorBodyTimeout, 1),
  };
}

function notString(value: unknown): boolean {
  return typeof value !== 'string';
}

function checkCount(provider: string, field: string, value: unknown, min: number) {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    throw modelConfigError(provider, `${field} must be a whole number ≥ ${min}`);
  return value;
}

/** A timer option: a whole number of ms from `min` up to what a Node timer can hold. */
function checkTimer(provider: string, field: string, value: unknown, min: number) {
  const ms = checkCount(provider, field, value, min);
  if (ms !== undefined && ms > MAX_TIMEOUT_MS)
    throw modelConfigError(
      provider,
      `${field} must be at most ${MAX_TIMEOUT_MS} ms (about 24.8 days)`,
    );
  return ms;
}

/** A required non-empty string option. */
export function requireText(provider: string, field: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '')
    throw modelConfigError(provider, `${field} is required (a non-empty string)`);
  return value;
}

/** An optional string option: `undefined`, or non-empty. */
export function optionalText(provider: string, field: string, value: unknown): string | undefined {
  if (value === undefined) return undefined;
  return requireText(provider, field, value);
}

/** An http(s) base URL without trailing slashes. */
export function checkBaseURL(provider: string, field: string, value: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw modelConfigError(provider, `${field} is not a valid URL: ${JSON.stringify(value)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw modelConfigError(provider, `${field} must be an http(s) URL`);
  if (url.search !== '' || url.hash !== '')
    throw modelConfigError(provider, `${field} must not carry a query string or fragment`);
  return value.replace(/\/+$/, '');
}
