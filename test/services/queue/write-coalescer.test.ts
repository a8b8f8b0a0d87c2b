/**
 * The worker's write coalescer against the real Redis: commands sent while the socket is held go
 * out together when the turn ends, in the order sent, each with its own reply; a connection that is
 * not ready is left alone (its commands wait in ioredis's offline queue as usual).
 */
import type { Socket } from 'node:net';
import { WriteCoalescer } from '../../../src/queue/write-coalescer';
import { deletePrefix, testRedis, uniquePrefix } from '../redis';

const prefix = uniquePrefix();
const redis = testRedis();

afterAll(async () => {
  await deletePrefix(redis, prefix);
  redis.disconnect();
});

const socketOf = (client: typeof redis): Socket => (client as unknown as { stream: Socket }).stream;

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

test('holds the writes of one turn, then sends them in order with their replies', async () => {
  await redis.ping();
  const coalescer = new WriteCoalescer(redis);
  const socket = socketOf(redis);
  coalescer.hold();
  coalescer.hold(); // once per turn
  expect(socket.writableCorked).toBe(1);
  const key = `${prefix}:order`;
  const replies = Promise.all([
    redis.rpush(key, 'a'),
    redis.rpush(key, 'b'),
    redis.lrange(key, 0, -1),
  ]);
  await nextTurn();
  expect(socket.writableCorked).toBe(0);
  expect(await replies).toEqual([1, 2, ['a', 'b']]);
  // A later turn holds again.
  coalescer.hold();
  expect(socket.writableCorked).toBe(1);
  await nextTurn();
  expect(socket.writableCorked).toBe(0);
});

test('leaves a connection that is not ready alone', async () => {
  const lazy = testRedis();
  try {
    lazy.disconnect();
    const coalescer = new WriteCoalescer(lazy);
    expect(lazy.status).not.toBe('ready');
    coalescer.hold();
    const stream = (lazy as unknown as { stream?: Socket }).stream;
    expect(stream?.writableCorked ?? 0).toBe(0);
  } finally {
    lazy.disconnect();
  }
});
