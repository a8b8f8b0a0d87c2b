/**
 * A worker process: it runs the support agent behind a spend cap kept in Redis, so every worker
 * shares the owner's daily budget. The parent tells it what to run over IPC.
 *
 *   node -r @swc-node/register examples/spend-caps/worker.ts
 */
import { Agent, RunError } from 'golem';
import { BudgetExceededError, spendCap } from 'golem/middleware';
import { memoryStore } from 'golem/stores/memory';
import { redisSpendStore } from 'golem/stores/redis';
import { FunctionModel, textResponse } from 'golem/testing';
import { Redis } from 'ioredis';
import { MAX_TOKENS, PREFIX, REDIS_URL, caps, prices } from './settings';

const redis = new Redis(REDIS_URL);
const store = redisSpendStore({ client: redis, prefix: PREFIX });

// An offline stand-in for a provider model: it always writes MAX_TOKENS tokens.
const model = new FunctionModel(
  () => textResponse('Your ticket is filed.', { inputTokens: 40, outputTokens: MAX_TOKENS }),
  { name: 'offline:support' },
);
const agent = new Agent({
  name: 'support',
  model,
  modelSettings: { maxTokens: MAX_TOKENS },
  prices, // the run's own cost (result.cost), from the same table
  middleware: [spendCap({ prices, caps, store })],
});
const runs = memoryStore();

process.on('message', (message: { prompt?: string; owner?: string; close?: boolean }) => {
  if (message.close === true) {
    redis.disconnect();
    process.exit(0);
  }
  if (message.prompt === undefined) return;
  agent.run(message.prompt, { owner: message.owner, store: runs }).then(
    (result) => process.send?.({ answered: result.output, cost: result.cost?.total ?? 0 }),
    (error: unknown) => {
      const cause = RunError.is(error) ? error.cause : error;
      if (RunError.is(error) && BudgetExceededError.is(cause))
        process.send?.({ stage: error.stage, refused: cause.message, spent: cause.spent });
      else process.send?.({ failed: String(error) });
    },
  );
});

process.send?.({ ready: true });
