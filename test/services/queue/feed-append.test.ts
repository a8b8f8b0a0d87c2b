/**
 * The Redis feed's append script against the real Redis: several runs' batches in one call, each
 * run's entries in order with its own sequence numbers, each run's cancellation reason returned to
 * it, and a batch that is not JSON failing alone while the others are written.
 */
import type { RunFeedEvent } from 'golem/queue';
import { RedisFeed } from '../../../src/queue/redis-feed';
import { QueueKeys } from '../../../src/queue/redis';
import { SharedSubscriber } from '../../../src/queue/subscriber';
import { deletePrefix, testRedis, uniquePrefix } from '../redis';

const prefix = uniquePrefix();
const redis = testRedis();
const subscriber = new SharedSubscriber(() => redis.duplicate());
const keys = new QueueKeys(prefix, 'golem');

afterAll(async () => {
  await deletePrefix(redis, prefix);
  redis.disconnect();
});

const delta = (content: string): RunFeedEvent => ({ type: 'delta', delta: { content } });

test('one call appends several runs in order, each with its sequence and cancellation', async () => {
  const feed = new RedisFeed(redis, keys, subscriber);
  await redis.set(keys.cancel('b'), 'user left');
  expect(await feed.append('a', [delta('a1')])).toBeUndefined();
  const results = feed.appendMany([
    { runId: 'a', events: [delta('a2'), delta('a3')] },
    { runId: 'b', events: [delta('b1')] },
  ]);
  expect(await Promise.all(results)).toEqual([undefined, 'user left']);
  const a = await feed.read('a');
  expect(a.map((e) => [e.seq, e.event])).toEqual([
    [1, delta('a1')],
    [2, delta('a2')],
    [3, delta('a3')],
  ]);
  expect((await feed.read('b')).map((e) => [e.seq, e.event])).toEqual([[1, delta('b1')]]);
  // Both keys expire with the feed.
  expect(await redis.pttl(keys.feed('a'))).toBeGreaterThan(0);
  expect(await redis.pttl(keys.feedSeq('a'))).toBeGreaterThan(0);
});

test('a batch that is not JSON fails alone; the others are written', async () => {
  const feed = new RedisFeed(redis, keys, subscriber);
  const bad = { type: 'event', event: { kind: 'tool_progress', update: 1n } } as unknown;
  const [broken, fine] = feed.appendMany([
    { runId: 'c', events: [bad as RunFeedEvent] },
    { runId: 'd', events: [delta('d1')] },
  ]);
  await expect(broken).rejects.toThrow(/BigInt/);
  expect(await fine).toBeUndefined();
  expect(await feed.read('c')).toEqual([]);
  expect((await feed.read('d')).map((e) => e.event)).toEqual([delta('d1')]);
});
