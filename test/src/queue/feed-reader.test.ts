/**
 * Reading a run's feed: the backlog, then live entries, in order and without duplicates, from a
 * cursor; trimmed entries as one `gap`; the store's ending when the feed is gone. Writing it (the
 * worker's publisher): one append per run per event-loop turn, every run's together, endings at
 * once. Against in-memory implementations of the feed port (the Redis one is exercised by the
 * services suite).
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

test('the publisher sends what a run emits during one turn as one append, in order', async () => {
  const feed = new MemoryFeed();
  const publisher = new FeedPublisher(feed, () => undefined);
  publisher.push('r', started);
  for (const c of ['a', 'b', 'c']) publisher.push('r', delta(c));
  await publisher.end('r', done);
  // Consecutive text fragments travel as one delta (test/src/queue/delta-merge.test.ts).
  expect(feed.entries.map((e) => e.event)).toEqual([started, delta('abc'), done]);
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
  await publisher.end('r', done);
  expect(await publisher.begin('r', started)).toBeUndefined();
  const throwing: RunFeedPort = {
    ...broken,
    append: () => {
      throw new Error('not JSON');
    },
  };
  await new FeedPublisher(throwing, (e) => errors.push(e)).end('r', done);
  expect(errors.map((e) => e.message)).toEqual(['down', 'down', 'not JSON']);
});

/** A feed whose appends stay unwritten until released; `appendMany` when asked. */
function slowFeed(many: boolean) {
  const sent: { runId: string; events: RunFeedEvent[] }[][] = [];
  const release: (() => void)[] = [];
  const one = (runId: string): Promise<string | undefined> =>
    new Promise((resolve) => {
      release.push(() => {
        resolve(runId === 'cancelled' ? 'stop' : undefined);
      });
    });
  const feed: RunFeedPort = {
    append: (runId, events) => {
      sent.push([{ runId, events: [...events] }]);
      return one(runId);
    },
    read: () => Promise.resolve([]),
    listen: () => Promise.resolve(() => Promise.resolve()),
    ...(many && {
      appendMany: (batches) => {
        sent.push(batches.map((b) => ({ runId: b.runId, events: [...b.events] })));
        return batches.map((b) => one(b.runId));
      },
    }),
  };
  return { feed, sent, release };
}

test("every run's batch of a turn goes out together, each run's cancellation to its own", async () => {
  const { feed, sent, release } = slowFeed(true);
  const publisher = new FeedPublisher(feed, () => undefined);
  const a = publisher.begin('a', started);
  const b = publisher.begin('cancelled', started);
  publisher.push('a', delta('x'));
  expect(sent).toEqual([]); // nothing before the turn ends
  await new Promise((resolve) => setImmediate(resolve));
  expect(sent).toEqual([
    [
      { runId: 'a', events: [started, delta('x')] },
      { runId: 'cancelled', events: [started] },
    ],
  ]);
  for (const r of release) r();
  expect([await a, await b]).toEqual([undefined, 'stop']);
});

test('an ending goes out at once, behind the batches in flight, and waits for its write unless ordered with the jobs', async () => {
  for (const ordered of [false, true]) {
    const { feed, sent, release } = slowFeed(false);
    const publisher = new FeedPublisher(feed, () => undefined, { orderedWithJobs: ordered });
    publisher.push('r', started);
    await new Promise((resolve) => setImmediate(resolve)); // the first batch is sent
    let ended = false;
    const ending = publisher.end('r', done).then(() => (ended = true));
    // Sent in the same turn, although the first batch is not written yet.
    expect(sent).toEqual([[{ runId: 'r', events: [started] }], [{ runId: 'r', events: [done] }]]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(ended).toBe(ordered);
    for (const r of release) r();
    await ending;
    expect(ended).toBe(true);
  }
});
