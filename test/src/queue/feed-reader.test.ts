/**
 * Reading a run's feed: the backlog, then live entries, in order and without duplicates, from a
 * cursor; trimmed entries as one `gap`; the store's ending when the feed is gone. Against an
 * in-memory implementation of the feed port (the Redis one is exercised by the services suite).
 */
import type { FeedEntry, RunFeedEvent, RunFeedPort } from 'golem/queue';
import { readFeed } from '../../../src/queue/feed-reader';
import { FeedPublisher } from '../../../src/queue/feed-publisher';

/** A feed in memory: ids `<n>-0`, listeners called synchronously on append. */
class MemoryFeed implements RunFeedPort {
  entries: FeedEntry[] = [];
  appends = 0;
  private listeners = new Set<(e: FeedEntry) => void>();
  private seq = 0;

  append(_runId: string, events: readonly RunFeedEvent[]): Promise<string | undefined> {
    this.appends++;
    for (const event of events) {
      this.seq++;
      const entry = { cursor: `${this.seq}-0/${this.seq}`, seq: this.seq, event };
      this.entries.push(entry);
      for (const l of this.listeners) l(entry);
    }
    return Promise.resolve(undefined);
  }
  read(_runId: string, after?: string): Promise<FeedEntry[]> {
    const from = after === undefined ? 0 : Number(after.split('-')[0]);
    return Promise.resolve(this.entries.filter((e) => Number(e.cursor.split('-')[0]) > from));
  }
  listen(_runId: string, onEntry: (e: FeedEntry) => void): Promise<() => Promise<void>> {
    this.listeners.add(onEntry);
    return Promise.resolve(() => {
      this.listeners.delete(onEntry);
      return Promise.resolve();
    });
  }
}

const started: RunFeedEvent = {
  type: 'started',
  runId: 'r',
  kind: 'start',
  attempt: 1,
  worker: 'w',
  at: 0,
};
const delta = (content: string): RunFeedEvent => ({ type: 'delta', delta: { content } });
const done: RunFeedEvent = {
  type: 'completed',
  output: 'ok',
  usage: { inputTokens: 0, outputTokens: 0 },
  requests: 1,
  toolCalls: 0,
  at: 0,
};

async function read(feed: RunFeedPort, options = {}, stored?: FeedEntry): Promise<FeedEntry[]> {
  const out: FeedEntry[] = [];
  for await (const entry of readFeed(feed, 'r', options, () => Promise.resolve(stored)))
    out.push(entry);
  return out;
}

test('backlog then live entries, each once, ending at the settling event', async () => {
  const feed = new MemoryFeed();
  await feed.append('r', [started, delta('a')]);
  const reading = read(feed);
  await feed.append('r', [delta('b'), done, delta('after the end')]);
  const entries = await reading;
  expect(entries.map((e) => e.seq)).toEqual([1, 2, 3, 4]);
  expect(entries.at(-1)?.event.type).toBe('completed');
});

test('reading after a cursor returns only what follows it', async () => {
  const feed = new MemoryFeed();
  await feed.append('r', [started, delta('a'), delta('b'), done]);
  const all = await read(feed);
  expect(await read(feed, { after: all[1]?.cursor })).toEqual(all.slice(2));
});

test('entries trimmed before the reader came show up as one gap', async () => {
  const feed = new MemoryFeed();
  await feed.append('r', [started, delta('a'), delta('b'), done]);
  feed.entries.splice(0, 2);
  const entries = await read(feed);
  expect(entries.map((e) => e.event)).toEqual([{ type: 'gap', missed: 2 }, delta('b'), done]);
});

test('a paused run settles the read; `until: finished` reads on through its resume', async () => {
  const feed = new MemoryFeed();
  const paused: RunFeedEvent = { type: 'paused', pending: { approvals: [], external: [] }, at: 0 };
  await feed.append('r', [started, paused]);
  expect((await read(feed)).map((e) => e.event.type)).toEqual(['started', 'paused']);
  const reading = read(feed, { until: 'finished' });
  await feed.append('r', [started, done]);
  expect((await reading).map((e) => e.event.type)).toEqual([
    'started',
    'paused',
    'started',
    'completed',
  ]);
});

test('an empty feed falls back to the stored ending; an abort ends the read quietly', async () => {
  const stored: FeedEntry = { cursor: '0-0/0', seq: 0, event: done };
  expect(await read(new MemoryFeed(), {}, stored)).toEqual([stored]);
  const controller = new AbortController();
  const reading = read(new MemoryFeed(), { signal: controller.signal });
  controller.abort();
  expect(await reading).toEqual([]);
});

test('the publisher batches what a run emits while an append is in flight, in order', async () => {
  const feed = new MemoryFeed();
  const publisher = new FeedPublisher(feed, () => undefined);
  publisher.push('r', started);
  for (const c of ['a', 'b', 'c']) publisher.push('r', delta(c));
  await publisher.send('r', done);
  expect(feed.entries.map((e) => e.event)).toEqual([
    started,
    delta('a'),
    delta('b'),
    delta('c'),
    done,
  ]);
  expect(feed.appends).toBe(1);
});

test('a feed that fails is reported, never thrown into the run', async () => {
  const errors: Error[] = [];
  const broken: RunFeedPort = {
    append: () => Promise.reject(new Error('down')),
    read: () => Promise.resolve([]),
    listen: () => Promise.resolve(() => Promise.resolve()),
  };
  const publisher = new FeedPublisher(broken, (e) => errors.push(e));
  await publisher.send('r', done);
  expect(await publisher.begin('r', started)).toBeUndefined();
  expect(errors.map((e) => e.message)).toEqual(['down', 'down']);
});

test('an ending is sent while earlier events are still being written, and waits for its own write', async () => {
  const sent: RunFeedEvent[][] = [];
  const release: (() => void)[] = [];
  const slow: RunFeedPort = {
    append: (_runId, events) => {
      sent.push([...events]);
      return new Promise((resolve) => {
        release.push(() => {
          resolve(undefined);
        });
      });
    },
    read: () => Promise.resolve([]),
    listen: () => Promise.resolve(() => Promise.resolve()),
  };
  const publisher = new FeedPublisher(slow, () => undefined);
  publisher.push('r', started);
  await Promise.resolve(); // the tick ends: the first batch is sent
  let ended = false;
  const ending = publisher.send('r', done).then(() => (ended = true));
  await new Promise((resolve) => setImmediate(resolve));
  // Both batches are out, in order, although the first is not written yet.
  expect(sent).toEqual([[started], [done]]);
  release[1]!();
  release[0]!();
  await ending;
  expect(ended).toBe(true);
});
