/**
 * Spend caps on Redis, for real: worker processes race the same cap through `redisSpendStore`;
 * the store's own atomicity is checked in-process.
 */
import { redisSpendStore } from 'golem/stores/redis';
import type { Redis } from 'ioredis';
import type { WorkerProcess } from './queue/processes';
import { REDIS_URL, deletePrefix, testRedis, uniquePrefix } from './redis';
import { closeAll, go, startChildren } from './spend/race';

jest.setTimeout(60_000);

const WORKERS = 4;
const CONCURRENCY = 3;
let redis: Redis;
let prefix: string;
let workers: WorkerProcess[] = [];

beforeAll(() => {
  redis = testRedis();
});
afterAll(() => {
  redis.disconnect();
});
beforeEach(() => {
  prefix = uniquePrefix();
});
afterEach(async () => {
  await closeAll(workers);
  workers = [];
  await deletePrefix(redis, prefix);
});

test('four processes racing one cap: exactly the calls that fit are admitted, spend never above the cap', async () => {
  // Every call reserves 4 (maxTokens) and spends 4: 12 fit under 50, whatever the interleaving.
  workers = await startChildren(WORKERS, {
    mode: 'spend-redis',
    redisUrl: REDIS_URL,
    prefix,
    limit: 50,
    maxTokens: 4,
    actualOut: 4,
  });
  const outcome = await go(workers, 8, CONCURRENCY);
  expect(outcome.other).toEqual([]);
  expect(outcome.ok).toBe(12);
  expect(outcome.refused).toBe(WORKERS * 8 - 12);
  const store = redisSpendStore({ client: redis, prefix });
  expect(await store.totals('global:total', Date.now())).toEqual({ spent: 48, reserved: 0 });
  const rows = await store.report({
    from: Date.now() - 3_600_000,
    to: Date.now() + 1,
    by: ['model'],
  });
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({
    model: 'test:m',
    cost: 48,
    currency: 'USD',
    calls: 12,
    outputTokens: 48,
  });
});

test('calls spending more than reserved: over the cap by at most Σ (actual − reserved) of the calls in flight', async () => {
  // No maxTokens: each call reserves 2 and spends 5; at most WORKERS × CONCURRENCY are in flight.
  workers = await startChildren(WORKERS, {
    mode: 'spend-redis',
    redisUrl: REDIS_URL,
    prefix,
    limit: 40,
    reserveOut: 2,
    actualOut: 5,
  });
  const outcome = await go(workers, 8, CONCURRENCY);
  expect(outcome.other).toEqual([]);
  const store = redisSpendStore({ client: redis, prefix });
  const { spent, reserved } = await store.totals('global:total', Date.now());
  expect(reserved).toBe(0);
  expect(spent).toBe(outcome.ok * 5);
  expect(spent).toBeLessThanOrEqual(40 + WORKERS * CONCURRENCY * (5 - 2));
  // The last admission saw spent + reserved + 2 <= 40: at least 8 calls were admitted.
  expect(outcome.ok).toBeGreaterThanOrEqual(8);
  expect(outcome.refused).toBe(WORKERS * 8 - outcome.ok);
});

test('reserve is all-or-nothing across windows, expired holds are dropped, release gives back', async () => {
  const store = redisSpendStore({ client: redis, prefix });
  const now = Date.UTC(2026, 11, 6, 12);
  const a = { key: 'owner:a:day:2026-12-06', limit: 10, expiresAt: Date.now() + 86_400_000 };
  const b = { key: 'global:total', limit: 3 };
  expect(await store.reserve({ id: '1', windows: [a, b], amount: 4, ttlMs: 1000, now })).toEqual({
    ok: false,
    window: b,
    spent: 0,
    reserved: 0,
  });
  expect(await store.totals(a.key, now)).toEqual({ spent: 0, reserved: 0 });
  expect(await store.reserve({ id: '2', windows: [a], amount: 10, ttlMs: 1000, now })).toEqual({
    ok: true,
  });
  expect(await store.reserve({ id: '3', windows: [a], amount: 1, ttlMs: 1000, now })).toMatchObject(
    {
      ok: false,
      reserved: 10,
    },
  );
  // A crashed worker's hold expires.
  expect(
    await store.reserve({ id: '3', windows: [a], amount: 1, ttlMs: 1000, now: now + 1000 }),
  ).toEqual({
    ok: true,
  });
  await store.release('3', [a]);
  expect(await store.totals(a.key, now + 1000)).toEqual({ spent: 0, reserved: 0 });
  // The window's keys expire with it.
  expect(await redis.pttl(`${prefix}:w:${a.key}`)).toBeGreaterThan(0);
  await store.settle('9', [a], 2.5, {
    at: now,
    owner: 'a',
    cost: 2.5,
    currency: 'USD',
    inputTokens: 1,
    outputTokens: 2,
  });
  expect(await store.totals(a.key, now)).toEqual({ spent: 2.5, reserved: 0 });
  expect(await store.report({ from: now - 1, to: now + 1, by: ['owner', 'agent'] })).toEqual([
    { owner: 'a', cost: 2.5, currency: 'USD', calls: 1, inputTokens: 1, outputTokens: 2 },
  ]);
});
