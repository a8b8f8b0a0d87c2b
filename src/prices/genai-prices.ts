import type { Cost, PriceLookup, PriceTable } from '../core/contract/cost';
import { missingPeerError } from '../core/kit/missing-peer';
import type { Usage } from '../core/contract/usage';

/** The npm package of the maintained price dataset (an optional peer dependency of golem). */
export const GENAI_PRICES_PACKAGE = '@pydantic/genai-prices';

/** The part of `@pydantic/genai-prices` golem uses. */
export interface GenaiPricesModule {
  calcPrice(
    usage: Record<string, number | undefined>,
    modelId: string,
    options?: { providerId?: string; timestamp?: Date },
  ): { input_price: number; output_price: number; total_price: number } | null;
}

/** Loads the dataset package; inject one to bundle it differently or to test a missing install. */
export type GenaiPricesLoader = () => GenaiPricesModule;

const requireGenaiPrices: GenaiPricesLoader = () =>
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- optional peer, loaded when a table is built
  require('@pydantic/genai-prices') as GenaiPricesModule;

/** golem provider ids → the dataset's provider ids (others are matched by model id alone). */
const PROVIDER_IDS: Readonly<Record<string, string>> = Object.freeze({
  openai: 'openai',
  azure: 'azure',
  anthropic: 'anthropic',
  gemini: 'google',
  vertex: 'google',
  bedrock: 'aws',
  groq: 'groq',
  deepseek: 'deepseek',
  mistral: 'mistral',
  xai: 'x-ai',
  perplexity: 'perplexity',
  cohere: 'cohere',
  together: 'together',
  fireworks: 'fireworks',
  openrouter: 'openrouter',
  cerebras: 'cerebras',
});

/** Options of {@link genaiPrices}. */
export interface GenaiPricesOptions {
  /** Price as of this date (prices change over time); default now. */
  timestamp?: Date;
  /** How the package is loaded; default `require('@pydantic/genai-prices')`. */
  load?: GenaiPricesLoader;
}

/**
 * A price table backed by `@pydantic/genai-prices`, the dataset Pydantic maintains for hundreds of
 * models (input, cached input, cache writes, output; tiered prices), in USD. Install the optional
 * peer with `npm install @pydantic/genai-prices`; without it this throws a `missing-peer`
 * `ConfigError`. Update the package to get new prices. A model the dataset does not know is
 * unpriced (`result.cost.unpriced`); combine with your own prices by wrapping both in one
 * `PriceTable`.
 */
export function genaiPrices(options: GenaiPricesOptions = {}): PriceTable {
  const dataset = loadDataset(options.load ?? requireGenaiPrices);
  return {
    currency: 'USD',
    cost(usage: Usage, model: PriceLookup): Cost | undefined {
      const providerId = model.provider === undefined ? undefined : PROVIDER_IDS[model.provider];
      const counts = {
        input_tokens: usage.inputTokens,
        output_tokens: usage.outputTokens,
        cache_read_tokens: usage.cacheReadTokens,
        cache_write_tokens: usage.cacheWriteTokens,
      };
      for (const id of [model.responseModel, model.model]) {
        if (id === undefined || id === '') continue;
        const priced = dataset.calcPrice(counts, id, {
          ...(providerId !== undefined && { providerId }),
          ...(options.timestamp !== undefined && { timestamp: options.timestamp }),
        });
        if (priced !== null)
          return {
            total: priced.total_price,
            input: priced.input_price,
            output: priced.output_price,
            currency: 'USD',
          };
      }
      return undefined;
    },
  };
}

/** Runs `load`; a missing module is a `missing-peer` `ConfigError` naming the install command. */
export function loadDataset(load: GenaiPricesLoader): GenaiPricesModule {
  try {
    return load();
  } catch (error) {
    const code =
      typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
    if (code === 'MODULE_NOT_FOUND' || code === 'ERR_MODULE_NOT_FOUND')
      throw missingPeerError('golem/prices', [GENAI_PRICES_PACKAGE]);
    throw error;
  }
}
