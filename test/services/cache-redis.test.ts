/**
 * The Redis response cache store against a real server (a unique key prefix per test, deleted
 * after): hits across workers through an agent, expiry set with PX (checked with PTTL, no
 * sleeping), entries without a TTL, delete, a failing client as a miss.
 */
import { Agent, StoreError } from 'golem';
import { responseCache } from 'golem/middleware';
import { redisCacheStore, type RedisClient } from 'golem/stores/redis';
import { FunctionModel, StreamFunctionModel, textResponse } from 'golem/testing';
import { countPrefix, deletePrefix, testRedis, uniquePrefix } from './redis';

const redis = testRedis();
afterAll(() => redis.quit());

let prefix: string;
beforeEach(() => {
  prefix = uniquePrefix();
});
afterEach(() => deletePrefix(redis, prefix));

test('two workers share answers; the entry expires by PX', async () => {
  const model = new FunctionModel(() => textResponse('hello', { inputTokens: 4, outputTokens: 2 }));
  const worker = () =>
    new Agent({
      model,
      middleware: [
        responseCache({ store: redisCacheStore({ client: redis, prefix }), ttl: 60_000 }),
      ],
    });
  await worker().run('hi');
  const result = await worker().run('hi');
  expect(model.calls).toBe(1);
  expect(result.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedResponses: 1 });
  const [key] = await redis.keys(`${prefix}:*`);
  expect(key).toMatch(new RegExp(`^${prefix}:[0-9a-f]{64}$`));
  const ttl = await redis.pttl(key as string);
  expect(ttl).toBeGreaterThan(50_000);
  expect(ttl).toBeLessThanOrEqual(60_000);
});

test('a streamed answer is replayed from Redis as the same fragments', async () => {
  const model = new StreamFunctionModel(async (_request, emit) => {
    await emit({ content: 'He' });
    await emit({ content: 'llo' });
    return textResponse('Hello');
  });
  const agent = new Agent({
    model,
    middleware: [responseCache({ store: redisCacheStore({ client: redis, prefix }) })],
  });
  const collect = async () => {
    const stream = agent.runStream('hi');
    const out: unknown[] = [];
    for await (const delta of stream) out.push(delta);
    return { out, result: await stream.result };
  };
  const first = await collect();
  const second = await collect();
  expect(second.out).toEqual(first.out);
  expect(second.out).toEqual([{ content: 'He' }, { content: 'llo' }]);
  expect(second.result.usage.cachedResponses).toBe(1);
  expect(model.calls).toBe(1);
});

test('set with and without a TTL, fractional TTLs rounded up; get and delete', async () => {
  const store = redisCacheStore({ client: redis, prefix });
  await store.set('a', 'A', 1500.2);
  await store.set('b', 'B', undefined);
  expect(await redis.pttl(`${prefix}:a`)).toBeGreaterThan(1000);
  expect(await redis.pttl(`${prefix}:a`)).toBeLessThanOrEqual(1501);
  expect(await redis.pttl(`${prefix}:b`)).toBe(-1);
  expect(await store.get('a')).toBe('A');
  await store.set('a', 'A2', undefined);
  expect(await redis.pttl(`${prefix}:a`)).toBe(-1);
  await store.delete('a');
  expect(await store.get('a')).toBeUndefined();
  expect(await countPrefix(redis, prefix)).toBe(1);
});

test('an expired key is a miss (expired by Redis, not by waiting: PEXPIRE in the past)', async () => {
  const store = redisCacheStore({ client: redis, prefix });
  await store.set('gone', 'x', 60_000);
  await redis.pexpireat(`${prefix}:gone`, 1);
  expect(await store.get('gone')).toBeUndefined();
});

test('a failing client is a miss: the run goes to the provider, onError hears an unavailable StoreError', async () => {
  const broken: RedisClient = {
    get: () => Promise.reject(new Error('READONLY')),
    set: () => Promise.reject(new Error('READONLY')),
    del: () => Promise.reject(new Error('READONLY')),
    eval: () => Promise.reject(new Error('READONLY')),
  };
  const errors: unknown[] = [];
  const model = new FunctionModel(() => textResponse('hello'));
  const agent = new Agent({
    model,
    middleware: [
      responseCache({
        store: redisCacheStore({ client: broken, prefix }),
        onError: (error) => errors.push(error),
      }),
    ],
  });
  expect((await agent.run('hi')).output).toBe('hello');
  expect(errors).toHaveLength(2);
  expect(StoreError.is(errors[0])).toBe(true);
  expect(errors[0]).toMatchObject({ reason: 'unavailable' });
});

test('options are checked', () => {
  expect(() => redisCacheStore({ client: {} as never })).toThrow(/client/);
  expect(() => redisCacheStore({ client: redis, prefix: '' })).toThrow(/prefix/);
});
