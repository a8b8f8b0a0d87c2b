/**
 * A worker process for the spend-cap and rate-limit races: it builds one agent over a local fake
 * model with fixed usage, behind `spendCap` (Redis or PostgreSQL store) or `rateLimit` (Redis),
 * says `ready`, and on `{ go: { runs, concurrency, owner? } }` runs them — `concurrency` at a
 * time — and answers `{ done: { ok, refused, other, kinds } }`. `{ close: true }` exits.
 */
import { Agent, RunError, priceTable, type ModelResponse } from 'golem';
import {
  BudgetExceededError,
  RateLimitedError,
  rateLimit,
  spendCap,
  type Middleware,
  type SpendStore,
} from 'golem/middleware';
import { postgresSpendStore } from 'golem/stores/postgres';
import { redisSpendStore } from 'golem/stores/redis';
import { FunctionModel, textResponse } from 'golem/testing';
import { Redis } from 'ioredis';
import { estimateInputTokens } from '../../../src/middleware/request-tokens';

/** The child's instructions, as JSON in GOLEM_QUEUE_CHILD. */
export interface SpendChildConfig {
  mode: 'spend-redis' | 'spend-postgres' | 'rate';
  redisUrl?: string;
  postgresUrl?: string;
  /** Redis key prefix (spend store or rate limits). */
  prefix?: string;
  /** PostgreSQL schema. */
  schema?: string;
  /** Spend: the global cap, in USD (1 USD per output token). */
  limit?: number;
  /** Spend: the output tokens reserved for a call without maxTokens. */
  reserveOut?: number;
  /** The output tokens every call reports. */
  actualOut: number;
  /** The calls' maxTokens, if any. */
  maxTokens?: number;
  /** Rate: requests per minute. */
  requests?: number;
  /** Rate: tokens per minute. */
  tokens?: number;
  /** Rate: the first call of this process answers with headers saying nothing is left for 30 s. */
  exhaustHeaders?: boolean;
}

const config = JSON.parse(process.env.GOLEM_QUEUE_CHILD ?? '{}') as SpendChildConfig;

function send(message: Record<string, unknown>): Promise<void> {
  return new Promise((resolve) => {
    process.send?.(message, () => {
      resolve();
    });
  });
}

let closing: (() => Promise<void>) | undefined;
let agent: Agent | undefined;

process.on(
  'message',
  (message: { close?: boolean; go?: { runs: number; concurrency: number } }) => {
    if (message.close === true)
      void (closing ?? (() => Promise.resolve()))().then(() => process.exit(0));
    if (message.go !== undefined) void go(message.go.runs, message.go.concurrency);
  },
);

async function go(runs: number, concurrency: number): Promise<void> {
  const outcome = { ok: 0, refused: 0, other: [] as string[], kinds: {} as Record<string, number> };
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < runs) {
      next++;
      try {
        await (agent as Agent).run('x');
        outcome.ok++;
      } catch (error) {
        const cause = RunError.is(error) ? error.cause : error;
        if (BudgetExceededError.is(cause) || RateLimitedError.is(cause)) {
          outcome.refused++;
          const kind = RateLimitedError.is(cause) ? cause.limitKind : 'budget';
          outcome.kinds[kind] = (outcome.kinds[kind] ?? 0) + 1;
        } else outcome.other.push(String(cause));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, lane));
  await send({ done: outcome });
}

async function main(): Promise<void> {
  let calls = 0;
  const model = new FunctionModel(
    (request): ModelResponse => {
      calls++;
      // Input reported as estimated: the rate limit's token hold is exact, nothing to correct.
      const response = textResponse('ok', {
        inputTokens: estimateInputTokens(request),
        outputTokens: config.actualOut,
      });
      if (config.exhaustHeaders === true && calls === 1)
        response.rateLimit = { remainingRequests: 0, resetRequestsMs: 30_000 };
      return response;
    },
    { name: 'test:m' },
  );
  let middleware: Middleware;
  if (config.mode === 'rate') {
    const redis = new Redis(config.redisUrl as string, { maxRetriesPerRequest: 1 });
    closing = async () => {
      redis.disconnect();
    };
    middleware = rateLimit({
      redis,
      prefix: config.prefix,
      maxWait: 0,
      ...(config.requests !== undefined && {
        requests: { limit: config.requests, interval: 60_000 },
      }),
      ...(config.tokens !== undefined && { tokens: { limit: config.tokens, interval: 60_000 } }),
    });
  } else {
    let store: SpendStore;
    if (config.mode === 'spend-redis') {
      const redis = new Redis(config.redisUrl as string, { maxRetriesPerRequest: 1 });
      store = redisSpendStore({ client: redis, prefix: config.prefix });
      closing = async () => {
        redis.disconnect();
      };
    } else {
      store = postgresSpendStore({
        connectionString: config.postgresUrl,
        schema: config.schema,
        poolSize: 4,
      });
      closing = async () => {
        await store.close?.();
      };
    }
    middleware = spendCap({
      prices: priceTable({ 'test:m': { input: 0, output: 1_000_000 } }),
      store,
      caps: [{ per: 'global', limit: config.limit as number }],
      reserve: { outputTokens: config.reserveOut ?? 0 },
    });
  }
  agent = new Agent({
    model,
    ...(config.maxTokens !== undefined && { modelSettings: { maxTokens: config.maxTokens } }),
    middleware: [middleware],
  });
  await send({ ready: process.pid });
}

main().catch(async (error: unknown) => {
  await send({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
  process.exit(1);
});
