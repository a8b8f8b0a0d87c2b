import { modelConfigError } from '../../core/errors/provider-errors';
import type { ThinkingSettings } from '../../core/contract/request';
import { MAX_TIMEOUT_MS } from '../../core/kit/timeouts';
import { DEFAULT_ERROR_BODY_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES } from '../shared/body';
import type { FetchLike } from '../../core/contract/fetch';

/** The provider name used in errors and in the model name (`anthropic:<model>`). */
export const PROVIDER = 'anthropic';

/** Default API root. */
export const DEFAULT_BASE_URL = 'https://api.anthropic.com';
/** Default `anthropic-version` header. */
export const DEFAULT_VERSION = '2023-06-01';
/** Default `max_tokens` (the API requires the field). */
export const DEFAULT_MAX_TOKENS = 1024;
/** Default whole-request timeout in ms (5 minutes). */
export const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;

/** Effort levels the API accepts in `output_config.effort`. */
export type AnthropicEffort = 'low' | 'medium' | 'high' | 'xhigh' | 'max';

const EFFORTS: readonly string[] = ['low', 'medium', 'high', 'xhigh', 'max'];
const THINKING_MODES: readonly string[] = ['adaptive', 'enabled', 'disabled'];

/** Configuration of the Anthropic adapter. Validated at construction (a model `ConfigError`). */
export interface AnthropicOptions {
  /** Model id or alias, e.g. `claude-sonnet-4-5`. */
  model: string;
  /** API key, sent as `x-api-key`. Never read from the environment by the adapter. */
  apiKey: string;
  /** API root; default `https://api.anthropic.com`. The adapter POSTs to `{baseURL}/v1/messages`. */
  baseURL?: string;
  /** `anthropic-version` header; default `2023-06-01`. */
  version?: string;
  /** Beta feature names, sent comma-separated in the `anthropic-beta` header. */
  betas?: readonly string[];
  /** Default `max_tokens` when a request sets none (or 0); a positive integer, default 1024. */
  maxTokens?: number;
  /** Default thinking when a request's `settings.thinking` is unset. */
  thinking?: ThinkingSettings;
  /** Default `output_config.effort` when a request's `settings.reasoningEffort` is unset. */
  effort?: AnthropicEffort;
  /**
   * Whole-call timeout in ms (request, response and stream); default 5 minutes; 0 disables it.
   * Exceeding it is a retryable `ModelTransportError`.
   */
  timeout?: number;
  /** Largest accepted SSE line in bytes; default the shared reader's cap (8 MiB). */
  maxLineBytes?: number;
  /** Largest accepted non-streaming response body in bytes (`ResponseTooLargeError`); default 32 MiB. */
  maxResponseBytes?: number;
  /**
   * Milliseconds an error response's body may take to arrive before the `ModelHTTPError` is
   * reported without it (status and `Retry-After` intact); default 5 s.
   */
  errorBodyTimeout?: number;
  /** The `fetch` to use; default the global one. */
  fetch?: FetchLike;
}

/** Validated configuration. */
export interface AnthropicConfig {
  readonly model: string;
  readonly apiKey: string;
  readonly url: string;
  readonly version: string;
  readonly betas: readonly string[];
  readonly maxTokens: number;
  readonly thinking: ThinkingSettings | undefined;
  readonly effort: AnthropicEffort | undefined;
  readonly timeout: number;
  readonly maxLineBytes: number | undefined;
  readonly maxResponseBytes: number;
  readonly errorBodyTimeout: number;
  readonly fetch: FetchLike | undefined;
}

function fail(message: string): never {
  throw modelConfigError(PROVIDER, message);
}

function nonEmpty(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim() === '')
    fail(`\`${field}\` must be a non-empty string`);
  return value;
}

/** Whether `value` is an integer >= `min`. */
export function isIntegerAtLeast(value: unknown, min: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min;
}

function baseUrl(value: unknown): string {
  if (value === undefined) return DEFAULT_BASE_URL;
  const text = nonEmpty(value, 'baseURL');
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return fail(`\`baseURL\` is not a valid URL: ${JSON.stringify(text)}`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:')
    fail(`\`baseURL\` must be an http(s) URL, got ${JSON.stringify(text)}`);
  if (parsed.search !== '' || parsed.hash !== '')
    fail('`baseURL` must not carry a query or fragment');
  return text.replace(/\/+$/, '');
}

/**
 * Checks thinking settings (adapter default or a request's); `where` names the source in the
 * error. `enabled` needs a positive integer `budgetTokens`.
 */
export function checkThinking(value: unknown, where: string): ThinkingSettings | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'object' || value === null) fail(`\`${where}\` must be an object`);
  const settings = value as Partial<ThinkingSettings>;
  if (typeof settings.mode !== 'string' || !THINKING_MODES.includes(settings.mode))
    fail(`\`${where}.mode\` must be 'adaptive', 'enabled' or 'disabled'`);
  if (settings.mode === 'enabled' && !isIntegerAtLeast(settings.budgetTokens, 1))
    fail(`\`${where}\` mode 'enabled' needs \`budgetTokens\`, a positive integer`);
  if (settings.budgetTokens !== undefined && !isIntegerAtLeast(settings.budgetTokens, 1))
    fail(`\`${where}.budgetTokens\` must be a positive integer`);
  if (settings.includeThoughts !== undefined && typeof settings.includeThoughts !== 'boolean')
    fail(`\`${where}.includeThoughts\` must be a boolean`);
  return value as ThinkingSettings;
}

function betas(value: unknown): readonly string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return fail('`betas` must be an array of strings');
  return value.map((beta: unknown) => {
    if (typeof beta !== 'string' || beta.trim() === '' || beta.includes(','))
      fail('`betas` entries must be non-empty strings without commas');
    return beta.trim();
  });
}

/** Validates options into a configuration; throws a model `ConfigError` naming the culprit. */
export function resolveOptions(options: AnthropicOptions): AnthropicConfig {
  if (typeof options !== 'object' || (options as unknown) === null)
    fail('options must be an object with at least `model` and `apiKey`');
  const model = nonEmpty(options.model, 'model');
  const apiKey = nonEmpty(options.apiKey, 'apiKey');
  const maxTokens = options.maxTokens ?? DEFAULT_MAX_TOKENS;
  if (!isIntegerAtLeast(maxTokens, 1))
    fail(`\`maxTokens\` must be a positive integer, got ${String(maxTokens)}`);
  if (options.effort !== undefined && !EFFORTS.includes(options.effort))
    fail(`\`effort\` must be one of ${EFFORTS.join(', ')}`);
  const timeout = options.timeout ?? DEFAULT_TIMEOUT_MS;
  if (typeof timeout !== 'number' || !Number.isFinite(timeout) || timeout < 0)
    fail('`timeout` must be a number of ms >= 0 (0 disables it)');
  if (timeout > MAX_TIMEOUT_MS) fail(`\`timeout\` must be at most ${MAX_TIMEOUT_MS} ms`);
  if (options.maxLineBytes !== undefined && !isIntegerAtLeast(options.maxLineBytes, 1))
    fail('`maxLineBytes` must be a positive integer');
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!isIntegerAtLeast(maxResponseBytes, 1)) fail('`maxResponseBytes` must be a positive integer');
  const errorBodyTimeout = options.errorBodyTimeout ?? DEFAULT_ERROR_BODY_TIMEOUT_MS;
  if (!isIntegerAtLeast(errorBodyTimeout, 1) || errorBodyTimeout > MAX_TIMEOUT_MS)
    fail(`\`errorBodyTimeout\` must be a whole number of ms from 1 to ${MAX_TIMEOUT_MS}`);
  if (options.fetch !== undefined && typeof options.fetch !== 'function')
    fail('`fetch` must be a function');
  return {
    model,
    apiKey,
    url: `${baseUrl(options.baseURL)}/v1/messages`,
    version: options.version === undefined ? DEFAULT_VERSION : nonEmpty(options.version, 'version'),
    betas: betas(options.betas),
    maxTokens,
    thinking: checkThinking(options.thinking, 'thinking'),
    effort: options.effort,
    timeout,
    maxLineBytes: options.maxLineBytes,
    maxResponseBytes,
    errorBodyTimeout,
    fetch: options.fetch,
  };
}
