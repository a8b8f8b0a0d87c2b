/**
 * `golem/prices`: run costs from the maintained `@pydantic/genai-prices` dataset (hundreds of
 * models; an optional peer, checked first: a `missing-peer` `ConfigError` names `npm install
 * @pydantic/genai-prices`). Your own prices need no package: `priceTable({...})` from `golem`.
 * @packageDocumentation
 */
import './peers';

export { genaiPrices } from './genai-prices';
export type { GenaiPricesOptions, GenaiPricesLoader, GenaiPricesModule } from './genai-prices';
