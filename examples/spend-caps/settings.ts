/** What the example's processes share: Redis, the key prefix of this run, the prices and the cap. */
import { priceTable } from 'golem';

/** Where the processes find Redis. */
export const REDIS_URL = process.env.GOLEM_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** The Redis key prefix of this run of the example (one per run, deleted at the end). */
export const PREFIX = process.env.GOLEM_EXAMPLE_PREFIX ?? 'golem-example-spend';

/** The offline model's price: output tokens at 10 USD per million, input free. */
export const prices = priceTable({ 'offline:support': { input: 0, output: 10 } });

/** Each call may write up to 300 tokens: it reserves, and costs, 0.003 USD. */
export const MAX_TOKENS = 300;

/** One cap shared by both workers: 0.01 USD per owner per UTC day. */
export const caps = [{ per: 'owner' as const, period: 'day' as const, limit: 0.01 }];
