import type { ModelCall } from '../core/engine/middleware';
import { ConfigError } from '../core/kit/config-error';
import { isRecord } from '../core/kit/guards';
import { MAX_TIMEOUT_MS } from '../core/kit/timeouts';

/**
 * A budget per interval: at most `limit` per `interval` ms (a fixed window starting at the first
 * call of the key; a whole number of seconds, as the shared store counts in seconds).
 * @inline
 */
export interface RateBudget {
  limit: number;
  interval: number;
}

/** Options of `rateLimit()`. */
export interface RateLimitOptions {
  /** Requests per interval. */
  requests?: RateBudget;
  /** Tokens (input + output) per interval: estimated before a call, corrected by its usage. */
  tokens?: RateBudget;
  /**
   * What shares a budget: `model` (the default: the model's name, `openai:gpt-4o`), `provider`
   * (the name's part before `:`), a fixed string (one budget for every call through this
   * middleware, e.g. an API key's label, never the key itself), or a function of the call.
   */
  key?: string | ((call: ModelCall) => string);
  /**
   * An `ioredis` client: the budgets live in Redis and every process using the same client
   * settings and `prefix` shares them. Without it they live in this process.
   */
  redis?: unknown;
  /** The key prefix of the budgets (in Redis and in memory); default `golem:rate`. */
  prefix?: string;
  /** The longest a call waits for its budget, in ms (default 60 000); longer throws `RateLimitedError`. */
  maxWait?: number;
  /** Output tokens held for a call without `maxTokens` until its usage is known; default 1024. */
  outputReserve?: number;
  /** The clock (ms); default `Date.now`. */
  now?: () => number;
  /** Waits `ms`, rejecting when `signal` aborts; default a timer. */
  sleep?: (ms: number, signal: AbortSignal | undefined) => Promise<void>;
}

/** Validated options. Internal. */
export interface RateLimitConfig {
  readonly requests: RateBudget | undefined;
  readonly tokens: RateBudget | undefined;
  readonly key: (call: ModelCall) => string;
  readonly redis: unknown;
  readonly prefix: string;
  readonly maxWait: number;
  readonly outputReserve: number;
}

function fail(message: string, option: string): ConfigError {
  return new ConfigError(`rateLimit: ${message}`, { component: 'middleware', option });
}

function checkBudget(value: unknown, option: string): RateBudget | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw fail(`\`${option}\` must be { limit, interval }`, option);
  const { limit, interval } = value;
  if (typeof limit !== 'number' || !Number.isInteger(limit) || limit < 1)
    throw fail(`\`${option}.limit\` must be an integer >= 1`, `${option}.limit`);
  if (
    typeof interval !== 'number' ||
    !Number.isInteger(interval) ||
    interval < 1000 ||
    interval % 1000 !== 0
  )
    throw fail(
      `\`${option}.interval\` must be a whole number of seconds in ms (1000, 60000…)`,
      `${option}.interval`,
    );
  return { limit, interval };
}

/** Validates `rateLimit`'s options (ConfigError, component `middleware`). Internal. */
export function checkRateLimit(options: RateLimitOptions): RateLimitConfig {
  const given: unknown = options;
  if (!isRecord(given)) throw fail('options must be an object', 'options');
  const requests = checkBudget(options.requests, 'requests');
  const tokens = checkBudget(options.tokens, 'tokens');
  const { key = 'model', prefix = 'golem:rate', maxWait = 60_000, outputReserve = 1024 } = options;
  if (typeof prefix !== 'string' || prefix === '')
    throw fail('`prefix` must be a non-empty string', 'prefix');
  if (
    typeof maxWait !== 'number' ||
    !Number.isFinite(maxWait) ||
    maxWait < 0 ||
    maxWait > MAX_TIMEOUT_MS
  )
    throw fail('`maxWait` must be a number of ms >= 0', 'maxWait');
  if (!Number.isInteger(outputReserve) || outputReserve < 0)
    throw fail('`outputReserve` must be an integer >= 0', 'outputReserve');
  if (options.redis !== undefined && !isRecord(options.redis))
    throw fail('`redis` must be an ioredis client', 'redis');
  let keyOf: (call: ModelCall) => string;
  if (typeof key === 'function') keyOf = key;
  else if (key === 'model') keyOf = (call) => call.model ?? 'unknown';
  else if (key === 'provider')
    keyOf = (call) => {
      const name = call.model ?? 'unknown';
      const colon = name.indexOf(':');
      return colon > 0 ? name.slice(0, colon) : name;
    };
  else if (typeof key === 'string' && key !== '') keyOf = () => key;
  else throw fail("`key` must be 'model', 'provider', a string or a function", 'key');
  return { requests, tokens, key: keyOf, redis: options.redis, prefix, maxWait, outputReserve };
}
