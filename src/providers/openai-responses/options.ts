import { isRecord } from '../../core/kit/guards';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ModelSettings } from '../../core/contract/request';
import { MAX_TIMEOUT_MS } from '../../core/kit/timeouts';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../shared/body';
import type { FetchLike } from '../../core/contract/fetch';
import { headerSecrets } from '../openai/chat-core';
import { checkBaseURL, optionalText, requireText } from '../openai/config-checks';
import { validateSettings } from '../openai/settings';

/** The adapter's provider id: in errors, in model names, on the reasoning it produces. */
export const PROVIDER = 'openai-responses';
/** Default base URL (`{baseURL}/responses` is called). */
export const DEFAULT_BASE_URL = 'https://api.openai.com/v1';
/** Default whole-call timeout: 5 minutes. */
export const DEFAULT_TIMEOUT_MS = 5 * 60 * 1000;

/** Configuration of an OpenAI Responses API model. */
export interface OpenAIResponsesOptions {
  /** Model id, e.g. `gpt-5`, `gpt-4.1-mini`, `o4-mini`. */
  model: string;
  /** Sent as `Authorization: Bearer …`; redacted from every error. */
  apiKey?: string;
  /** Base URL; `{baseURL}/responses` is called. Default `https://api.openai.com/v1`. */
  baseURL?: string;
  /** Sent as `OpenAI-Organization`. */
  organization?: string;
  /** Extra request headers, sent after the adapter's own (they can override them). */
  headers?: Record<string, string>;
  /** The `fetch` used for every call; inject one to record, proxy or test. */
  fetch?: FetchLike;
  /** Default request settings, validated now; a request's own settings override them field by field. */
  settings?: ModelSettings;
  /** Send function tools with `strict: true` and their schemas compiled to the strict dialect. */
  strictSchemas?: boolean;
  /**
   * Let OpenAI keep responses (`store: true`). Default `false` unless `previousResponseId` is
   * `'auto'`: Golem keeps the evidence itself and replays it (reasoning as encrypted content).
   */
  store?: boolean;
  /**
   * `'auto'` continues conversations server-side: a request whose history holds an assistant
   * message this API produced (its `responseId`) sends `previous_response_id` and only the
   * messages after it. Needs `store` (on by default in this mode). Default `'off'` (stateless).
   */
  previousResponseId?: 'auto' | 'off';
  /**
   * Ask for reasoning items with `encrypted_content` (so a stateless conversation replays them).
   * Default: on for reasoning models (`o1`, `o3`, `o4-mini`, `gpt-5`, `codex-…`) when `store` is
   * off; sending it to a model without reasoning is an API error.
   */
  encryptedReasoning?: boolean;
  /** Ask for reasoning summaries (`reasoning.summary`); `settings.thinking.includeThoughts` asks for `auto`. */
  reasoningSummary?: 'auto' | 'concise' | 'detailed';
  /** Milliseconds the whole call may take (then a retryable `ModelTransportError`); default 5 minutes, 0 = none. */
  timeout?: number;
  /** Longest accepted server-sent-event line in bytes (default: the shared reader's 8 MiB). */
  maxLineBytes?: number;
  /** Largest accepted non-streaming response body in bytes (`ResponseTooLargeError`); default 32 MiB. */
  maxResponseBytes?: number;
  /** Milliseconds an error body may take to arrive before the error is reported without it; default 5 s. */
  errorBodyTimeout?: number;
}

/** Validated configuration. */
export interface ResponsesConfig {
  readonly model: string;
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly secrets: readonly string[];
  readonly fetch: FetchLike | undefined;
  readonly settings: ModelSettings | undefined;
  readonly strictSchemas: boolean;
  readonly store: boolean;
  readonly previousResponseId: 'auto' | 'off';
  readonly encryptedReasoning: boolean;
  readonly reasoningSummary: 'auto' | 'concise' | 'detailed' | undefined;
  readonly timeout: number;
  readonly maxLineBytes: number | undefined;
  readonly maxResponseBytes: number;
  readonly errorBodyTimeout: number | undefined;
}

const REASONING_MODEL = /^(?:o\d|gpt-5|codex)/;

function fail(message: string): never {
  throw modelConfigError(PROVIDER, message);
}

/** Validates the options (a model `ConfigError` naming the field) and resolves the defaults. */
export function resolveOptions(options: OpenAIResponsesOptions): ResponsesConfig {
  if (!isRecord(options)) fail('options must be an object with at least `model`');
  const model = requireText(PROVIDER, 'model', options.model);
  const apiKey = optionalText(PROVIDER, 'apiKey', options.apiKey);
  const organization = optionalText(PROVIDER, 'organization', options.organization);
  const baseURL = checkBaseURL(PROVIDER, 'baseURL', options.baseURL ?? DEFAULT_BASE_URL);
  const extra = options.headers;
  if (extra !== undefined && (!isRecord(extra) || !Object.values(extra).every(isText)))
    fail('headers must be an object of string values');
  if (options.fetch !== undefined && typeof options.fetch !== 'function')
    fail('fetch must be a function');
  validateSettings(PROVIDER, options.settings);
  for (const field of ['strictSchemas', 'store', 'encryptedReasoning'] as const)
    if (options[field] !== undefined && typeof options[field] !== 'boolean')
      fail(`${field} must be a boolean`);
  const chain: unknown = options.previousResponseId ?? 'off';
  if (chain !== 'auto' && chain !== 'off') fail('previousResponseId must be "auto" or "off"');
  if (chain === 'auto' && options.store === false)
    fail('previousResponseId "auto" needs stored responses; leave store unset or set it to true');
  const store = options.store ?? chain === 'auto';
  const summary = options.reasoningSummary;
  if (summary !== undefined && !['auto', 'concise', 'detailed'].includes(summary))
    fail('reasoningSummary must be "auto", "concise" or "detailed"');
  const headers: Record<string, string> = {};
  if (apiKey !== undefined) headers.authorization = `Bearer ${apiKey}`;
  if (organization !== undefined) headers['openai-organization'] = organization;
  Object.assign(headers, extra ?? {});
  return {
    model,
    url: `${baseURL}/responses`,
    headers,
    secrets: [...(apiKey === undefined ? [] : [apiKey]), ...headerSecrets(extra ?? {})],
    fetch: options.fetch,
    settings: options.settings,
    strictSchemas: options.strictSchemas === true,
    store,
    previousResponseId: chain,
    encryptedReasoning: options.encryptedReasoning ?? (!store && REASONING_MODEL.test(model)),
    reasoningSummary: summary,
    timeout: timer('timeout', options.timeout, 0) ?? DEFAULT_TIMEOUT_MS,
    maxLineBytes: count('maxLineBytes', options.maxLineBytes, 1),
    maxResponseBytes:
      count('maxResponseBytes', options.maxResponseBytes, 1) ?? DEFAULT_MAX_RESPONSE_BYTES,
    errorBodyTimeout: timer('errorBodyTimeout', options.errorBodyTimeout, 1),
  };
}

function isText(value: unknown): boolean {
  return typeof value === 'string';
}

function count(field: string, value: unknown, min: number): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < min)
    fail(`${field} must be a whole number ≥ ${min}`);
  return value;
}

function timer(field: string, value: unknown, min: number): number | undefined {
  const ms = count(field, value, min);
  if (ms !== undefined && ms > MAX_TIMEOUT_MS)
    fail(`${field} must be at most ${MAX_TIMEOUT_MS} ms (about 24.8 days)`);
  return ms;
}
