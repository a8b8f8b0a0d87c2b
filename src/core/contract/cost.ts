import { ConfigError } from '../kit/config-error';
import { isRecord } from '../kit/guards';
import type { Usage } from './usage';

/**
 * Prices of one model, in the table's currency per **million** tokens. Cache and reasoning
 * prices default to the input and output prices.
 */
export interface ModelPrice {
  /** Per million input tokens not read from nor written to the cache. */
  input: number;
  /** Per million output tokens (reasoning tokens too, unless `reasoning` is set). */
  output: number;
  /** Per million input tokens read from the prompt cache; default `input`. */
  cacheRead?: number;
  /** Per million input tokens written to the prompt cache; default `input`. */
  cacheWrite?: number;
  /** Per million reasoning tokens; default `output`. */
  reasoning?: number;
}

/** What one or more model responses cost. */
export interface Cost {
  /** `input + output`. */
  total: number;
  /** The input tokens' share, cache reads and writes included. */
  input: number;
  /** The output tokens' share, reasoning included. */
  output: number;
  /** The table's currency, e.g. `USD`. */
  currency: string;
}

/** Which model answered, for a price lookup. */
export interface PriceLookup {
  /** The adapter's provider id (`openai`, `anthropic`…), when known. */
  readonly provider: string | undefined;
  /** The configured model id. */
  readonly model: string;
  /** The model the provider says answered (a dated snapshot, say), when it says. */
  readonly responseModel?: string;
}

/**
 * The price-table port: what `usage` cost on a model, or `undefined` when the table has no price
 * for it. Build one from your prices with {@link priceTable}, or use a maintained dataset
 * (`genaiPrices()` from `golem/prices`).
 */
export interface PriceTable {
  /** The currency of the table's costs; default `USD`. */
  readonly currency?: string;
  /** What `usage` cost on `model`, or `undefined` when the table has no price for it. */
  cost(usage: Usage, model: PriceLookup): Cost | undefined;
}

/** A price table or one of its prices is malformed: a {@link ConfigError} of component `prices`. */
export function priceTableError(message: string): ConfigError {
  return new ConfigError(message, { component: 'prices' });
}

const PRICE_KEYS = ['input', 'output', 'cacheRead', 'cacheWrite', 'reasoning'] as const;

/** Validates one price (every field a finite number >= 0; `input` and `output` required). */
export function checkPrice(price: unknown, label: string): ModelPrice {
  if (!isRecord(price))
    throw priceTableError(
      `${label} must be an object of per-million-token prices, e.g. { input: 0.15, output: 0.6 }`,
    );
  for (const key of PRICE_KEYS) {
    const value = price[key];
    const required = key === 'input' || key === 'output';
    if (value === undefined && !required) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw priceTableError(
        `${label}.${key} must be a number >= 0 (per million tokens), got ${String(value)}`,
      );
  }
  return price as unknown as ModelPrice;
}

/**
 * What `usage` costs at `price`: uncached input at `input`, cache reads at `cacheRead`, cache
 * writes at `cacheWrite`, reasoning at `reasoning`, the rest of the output at `output`.
 */
export function costOf(usage: Usage, price: ModelPrice, currency = 'USD'): Cost {
  const cacheRead = usage.cacheReadTokens ?? 0;
  const cacheWrite = usage.cacheWriteTokens ?? 0;
  const reasoning = usage.reasoningTokens ?? 0;
  const uncached = Math.max(0, usage.inputTokens - cacheRead - cacheWrite);
  const visible = Math.max(0, usage.outputTokens - reasoning);
  const input =
    (uncached * price.input +
      cacheRead * (price.cacheRead ?? price.input) +
      cacheWrite * (price.cacheWrite ?? price.input)) /
    1e6;
  const output = (visible * price.output + reasoning * (price.reasoning ?? price.output)) / 1e6;
  return { total: input + output, input, output, currency };
}

/** The sum of two costs; `undefined` plus a cost is that cost. Currencies must agree. */
export function addCost(a: Cost | undefined, b: Cost): Cost {
  if (a === undefined) return { ...b };
  if (a.currency !== b.currency)
    throw priceTableError(
      `cannot add costs in ${a.currency} and ${b.currency}; price every model in one currency`,
    );
  return {
    total: a.total + b.total,
    input: a.input + b.input,
    output: a.output + b.output,
    currency: a.currency,
  };
}

/**
 * Options of {@link priceTable}.
 * @inline
 */
export interface PriceTableOptions {
  /** The currency of every price; default `USD`. */
  currency?: string;
}

/**
 * A price table from your own prices, keyed by `provider:model` or by model id alone
 * (`{ 'openai:gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 } }`). A lookup tries
 * the model the provider says answered, then the configured model, each with its provider
 * prefix first. Prices are validated here (`ConfigError`, component `prices`).
 */
export function priceTable(
  prices: Readonly<Record<string, ModelPrice>>,
  options: PriceTableOptions = {},
): PriceTable {
  if (!isRecord(prices))
    throw priceTableError('priceTable needs an object of prices keyed by model');
  const currency = options.currency ?? 'USD';
  if (typeof currency !== 'string' || currency === '')
    throw priceTableError('priceTable `currency` must be a non-empty string, e.g. USD');
  const table = new Map<string, ModelPrice>();
  for (const [key, price] of Object.entries(prices)) {
    if (key === '') throw priceTableError('priceTable keys must be model ids, got ""');
    table.set(key, { ...checkPrice(price, `priceTable[${JSON.stringify(key)}]`) });
  }
  return {
    currency,
    cost(usage, model) {
      for (const id of [model.responseModel, model.model]) {
        if (id === undefined || id === '') continue;
        const price =
          (model.provider === undefined ? undefined : table.get(`${model.provider}:${id}`)) ??
          table.get(id);
        if (price !== undefined) return costOf(usage, price, currency);
      }
      return undefined;
    },
  };
}
