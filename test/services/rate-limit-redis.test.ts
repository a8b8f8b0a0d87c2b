/**
 * Shared rate limits on Redis, for real: worker processes race the same limit (requests, tokens)
 * and a provider's exhausted headers in one process make every other process wait.
 */
import type { Redis } from 'ioredis';
import { estimateInputTokens } from '../../src/middleware/request-tokens';
import type { WorkerProcess } from './queue/processes';
import { REDIS_URL, countPrefix, deletePrefix, testRedis, uniquePrefix } from './redis';
import { closeAll, go, startChildren } from './spend/race';

jest.setTimeout(60_000);

const WORKERS = 4;
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
  expect(await countPrefix(redis, prefix)).toBe(0);
});

// The races run well inside one 60 s window: admissions are exact, not timing-dependent.
test('four processes never admit more than the request limit in a window', async () => {
  workers = await startChildren(WORKERS, {
    mode: 'rate',
    redisUrl: REDIS_URL,
    prefix,
    requests: 7,
    actualOut: 1,
  });
  const outcome = await go(workers, 6, 3);
  expect(outcome.other).toEqual([]);
  expect(outcome.ok).toBe(7);
  expect(outcome.kinds).toEqual({ requests: WORKERS * 6 - 7 });
});

test('four processes never admit more than the token limit in a window', async () => {
  // Each call holds its input estimate + maxTokens and reports exactly that: 5 calls fit.
  const input = estimateInputTokens({ messages: [{ role: 'user', content: 'x' }], tools: [] });
  const perCall = input + 100;
  workers = await startChildren(WORKERS, {
    mode: 'rate',
    redisUrl: REDIS_URL,
    prefix,
    tokens: perCall * 5 + perCall - 1,
    maxTokens: 100,
    actualOut: 100,
  });
  const outcome = await go(workers, 5, 2);
  expect(outcome.other).toEqual([]);
  expect(outcome.ok).toBe(5);
  expect(outcome.kinds).toEqual({ tokens: WORKERS * 5 - 5 });
});

test("one process's exhausted provider headers make every process wait", async () => {
  const [first] = (workers = await startChildren(1, {
    mode: 'rate',
    redisUrl: REDIS_URL,
    prefix,
    actualOut: 1,
    exhaustHeaders: true,
  }));
  expect(await go([first as WorkerProcess], 1, 1)).toMatchObject({ ok: 1, refused: 0 });
  const others = await startChildren(3, {
    mode: 'rate',
    redisUrl: REDIS_URL,
    prefix,
    actualOut: 1,
  });
  workers.push(...others);
  const outcome = await go(others, 2, 1);
  expect(outcome).toMatchObject({ ok: 0, refused: 6, kinds: { provider: 6 } });
});
