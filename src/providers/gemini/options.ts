import { isRecord } from '../../core/kit/guards';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ModelSettings } from '../../core/contract/request';
import { MAX_TIMEOUT_MS } from '../../core/kit/timeouts';
import { DEFAULT_ERROR_BODY_TIMEOUT_MS, DEFAULT_MAX_RESPONSE_BYTES } from '../shared/body';
import type { FetchLike } from '../../core/contract/fetch';
import { validateSettings, validateThinkingOptions, type GeminiThinkingOptions } from './settings';

/** Where `request.outputSchema` goes in `generationConfig`. */
export type GeminiOutputSchemaField = 'responseJsonSchema' | 'responseSchema';

/** Configuration of {@link GeminiModel}; validated at construction, never read from the environment. */
export interface GeminiOptions {
  /** Model id, e.g. `gemini-2.5-flash` (a leading `models/` is accepted and dropped). */
  model: string;
  /** Gemini API key, sent as `x-goog-api-key`. Exactly one of `apiKey` and `accessToken`. */
  apiKey?: string;
  /** OAuth access token (Vertex AI), sent as `Authorization: Bearer`; a function is called per request. */
  accessToken?: string | (() => string | Promise<string>);
  /** API root including the version; default `https://generativelanguage.googleapis.com/v1beta`. */
  baseURL?: string;
  /** API version of the default root (`v1beta`); exclusive with `baseURL`. */
  apiVersion?: string;
  /** Extra request headers (e.g. `x-goog-user-project`). */
  headers?: Record<string, string>;
  /** The `fetch` to use; default the global one. */
  fetch?: FetchLike;
  /** Thinking defaults (`generationConfig.thinkingConfig`); request settings override them. */
  thinking?: GeminiThinkingOptions;
  /** Default request settings; `request.settings` override them key by key. */
  settings?: ModelSettings;
  /** `responseJsonSchema` (default: the JSON Schema as is) or `responseSchema` (compiled to Gemini's OpenAPI subset). */
  outputSchemaField?: GeminiOutputSchemaField;
  /**
   * Milliseconds for a whole call (request, response and stream); default 300000; 0 = no limit.
   * Exceeding it is a retryable `ModelTransportError`.
   */
  timeout?: number;
  /** Largest accepted SSE line in bytes; default that of the shared SSE reader (8 MiB). */
  maxLineBytes?: number;
  /** Largest accepted non-streaming response body in bytes (`ResponseTooLargeError`); default 32 MiB. */
  maxResponseBytes?: number;
  /**
   * Milliseconds an error response's body may take to arrive before the `ModelHTTPError` is
   * reported without it (status and `Retry-After` intact); default 5 s.
   */
  errorBodyTimeout?: number;
}

/** Validated configuration. */
export interface ResolvedGeminiOptions {
  provider: string;
  model: string;
  baseURL: string;
  apiKey: string | undefined;
  accessToken: GeminiOptions['accessToken'];
  headers: Record<string, string>;
  fetch: FetchLike | undefined;
  thinking: GeminiThinkingOptions | undefined;
  settings: ModelSettings | undefined;
  outputSchemaField: GeminiOutputSchemaField;
  timeout: number;
  maxLineBytes: number | undefined;
  maxResponseBytes: number;
  errorBodyTimeout: number;
}

/** The provider label used in errors. */
export const PROVIDER = 'gemini';
const DEFAULT_ROOT = 'https://generativelanguage.googleapis.com';
const DEFAULT_TIMEOUT = 300_000;

/** Validates `options` (throwing a model `ConfigError`) and fills in defaults. */
export function resolveOptions(options: GeminiOptions): ResolvedGeminiOptions {
  const fail = (message: string): never => {
    throw modelConfigError(PROVIDER, message);
  };
  if (!isRecord(options)) fail('options must be an object');
  const model = typeof options.model === 'string' ? options.model.replace(/^models\//, '') : '';
  if (!/^[A-Za-z0-9][A-Za-z0-9._@-]*$/.test(model))
    fail('model must be a Gemini model id such as "gemini-2.5-flash"');
  const { apiKey, accessToken } = options;
  if (apiKey !== undefined && (typeof apiKey !== 'string' || apiKey.trim() === ''))
    fail('apiKey must be a non-empty string');
  if (
    accessToken !== undefined &&
    !(typeof accessToken === 'function' || (typeof accessToken === 'string' && accessToken !== ''))
  )
    fail('accessToken must be a non-empty string or a function returning one');
  if (apiKey === undefined && accessToken === undefined)
    fail('apiKey is required (pass it explicitly, e.g. process.env.GEMINI_API_KEY)');
  if (apiKey !== undefined && accessToken !== undefined)
    fail('set apiKey or accessToken, not both');
  const base = resolveBaseURL(options, fail);
  const headers = options.headers ?? {};
  if (!isRecord(headers) || Object.values(headers).some((v) => typeof v !== 'string'))
    fail('headers must map names to strings');
  if (options.fetch !== undefined && typeof options.fetch !== 'function')
    fail('fetch must be a function');
  validateThinkingOptions(PROVIDER, options.thinking);
  validateSettings(PROVIDER, options.settings);
  const field: string = options.outputSchemaField ?? 'responseJsonSchema';
  if (field !== 'responseJsonSchema' && field !== 'responseSchema')
    fail('outputSchemaField must be "responseJsonSchema" or "responseSchema"');
  const timeout = options.timeout ?? DEFAULT_TIMEOUT;
  if (!Number.isInteger(timeout) || timeout < 0) fail('timeout must be an integer >= 0 (ms)');
  if (timeout > MAX_TIMEOUT_MS) fail(`timeout must be at most ${MAX_TIMEOUT_MS} ms`);
  const maxLineBytes = options.maxLineBytes;
  if (maxLineBytes !== undefined && !(Number.isInteger(maxLineBytes) && maxLineBytes > 0))
    fail('maxLineBytes must be a positive integer');
  const maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
  if (!(Number.isSafeInteger(maxResponseBytes) && maxResponseBytes > 0))
    fail('maxResponseBytes must be a positive integer');
  const errorBodyTimeout = options.errorBodyTimeout ?? DEFAULT_ERROR_BODY_TIMEOUT_MS;
  if (
    !Number.isInteger(errorBodyTimeout) ||
    errorBodyTimeout < 1 ||
    errorBodyTimeout > MAX_TIMEOUT_MS
  )
    fail(`errorBodyTimeout must be an integer from 1 to ${MAX_TIMEOUT_MS} (ms)`);
  return {
    provider: PROVIDER,
    model,
    baseURL: base,
    apiKey,
    accessToken,
    headers: { ...headers },
    fetch: options.fetch,
    thinking: options.thinking === undefined ? undefined : { ...options.thinking },
    settings: options.settings === undefined ? undefined : { ...options.settings },
    outputSchemaField: field as GeminiOutputSchemaField,
    timeout,
    maxLineBytes,
    maxResponseBytes,
    errorBodyTimeout,
  };
}

function resolveBaseURL(options: GeminiOptions, fail: (message: string) => never): string {
  const { baseURL, apiVersion } = options;
  if (apiVersion !== undefined) {
    if (baseURL !== undefined) fail('set baseURL (including the version) or apiVersion, not both');
    if (typeof apiVersion !== 'string' || !/^v\d+[a-z0-9]*$/.test(apiVersion))
      fail('apiVersion must look like "v1" or "v1beta"');
    return `${DEFAULT_ROOT}/${apiVersion}`;
  }
  if (baseURL === undefined) return `${DEFAULT_ROOT}/v1beta`;
  let url: URL | undefined;
  try {
    url = typeof baseURL === 'string' ? new URL(baseURL) : undefined;
  } catch {
    url = undefined;
  }
  if (url === undefined || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    fail('baseURL must be an http(s) URL');
  if (url.search !== '' || url.hash !== '') fail('baseURL must not carry a query or fragment');
  return baseURL.replace(/\/+$/, '');
}
