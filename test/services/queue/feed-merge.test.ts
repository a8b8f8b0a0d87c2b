/**
 * Merged feed deltas against the real Redis: a burst of text fragments streamed by a run reaches a
 * subscriber as fewer `delta` entries carrying the same text in the same order; and a subscriber
 * that resumes from any entry's cursor — from the backlog, or live while the run still streams —
 * loses nothing and gets nothing twice.
 */
import { Agent } from 'golem';
import type { Delta } from 'golem';
import type { FeedEntry, RunFeedEvent } from 'golem/queue';
import { StreamFunctionModel, textResponse } from 'golem/testing';
import { FeedPublisher } from '../../../src/queue/feed-publisher';
import { readFeed } from '../../../src/queue/feed-reader';
import { RedisFeed } from '../../../src/queue/redis-feed';
import { QueueKeys } from '../../../src/queue/redis';
import { SharedSubscriber } from '../../../src/queue/subscriber';
import { deletePrefix, testRedis, uniquePrefix } from '../redis';
import type { Harness } from './harness';
import { harness } from './harness';

jest.setTimeout(30_000);

async function collect(it: AsyncIterable<FeedEntry>): Promise<FeedEntry[]> {
  const out: FeedEntry[] = [];
  for await (const entry of it) out.push(entry);
  return out;
}

/** The content text of the entries' deltas, in order. */
const textOf = (entries: readonly FeedEntry[]): string =>
  entries.map((e) => (e.event.type === 'delta' ? (e.event.delta.content ?? '') : '')).join('');

const deltaCount = (entries: readonly FeedEntry[]): number =>
  entries.filter((e) => e.event.type === 'delta').length;

describe('through a worker', () => {
  let h: Harness;
  afterAll(async () => {
    await h.close();
  });

  test('a burst of deltas arrives as fewer entries with the same text, resumable from any cursor', async () => {
    const words = Array.from({ length: 400 }, (_, i) => `w${i} `);
    const model = new StreamFunctionModel(async (_request, emit) => {
      for (const word of words) await emit({ content: word });
      return textResponse(words.join(''));
    });
    h = await harness();
    await h.worker({ agents: [new Agent({ model, name: 'chatty' })] });
    const { runId } = await h.queue.enqueue('chatty', 'talk');
    const live = await collect(h.queue.events(runId));
    expect(live.at(-1)?.event).toMatchObject({ type: 'completed', output: words.join('') });
    // The same text, in order, in far fewer entries; sequence numbers still 1, 2, 3, …
    expect(textOf(live)).toBe(words.join(''));
    expect(deltaCount(live)).toBeGreaterThan(0);
    expect(deltaCount(live)).toBeLessThan(words.length / 10);
    expect(live.map((e) => e.seq)).toEqual(live.map((_, i) => i + 1));
    // The backlog is what the live reader saw; resuming after any entry gives exactly the rest.
    const all = await collect(h.queue.events(runId));
    expect(all).toEqual(live);
    for (let i = 0; i < all.length - 1; i++) {
      const rest = await collect(h.queue.events(runId, { after: all[i]?.cursor }));
      expect(rest).toEqual(all.slice(i + 1));
      expect(textOf(all.slice(0, i + 1)) + textOf(rest)).toBe(words.join(''));
    }
    expect(h.errors).toEqual([]);
  });
});

describe('the publisher over the Redis feed', () => {
  const prefix = uniquePrefix();
  const redis = testRedis();
  const subscriber = new SharedSubscriber(() => redis.duplicate());
  const keys = new QueueKeys(prefix, 'golem');

  afterAll(async () => {
    await subscriber.connected?.quit();
    subscriber.clear();
    await deletePrefix(redis, prefix);
    redis.disconnect();
  });

  const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));
  const started: RunFeedEvent = {
    type: 'started',
    runId: 'r',
    kind: 'start',
    attempt: 1,
    worker: 'w',
    at: 0,
  };
  const turnStart = (turn: number): RunFeedEvent => ({
    type: 'event',
    event: { kind: 'model_start', turn, attempt: 1 },
  });

  test('a subscriber resuming live from a mid-stream cursor loses nothing and repeats nothing', async () => {
    const feed = new RedisFeed(redis, keys, subscriber);
    const errors: Error[] = [];
    const publisher = new FeedPublisher(feed, (e) => errors.push(e));
    const runId = 'live';
    const none = (): Promise<undefined> => Promise.resolve(undefined);
    /** Every fragment pushed, by turn: content and reasoning bursts. */
    const pushed: Delta[] = [];
    const burst = (turn: number): void => {
      publisher.push(runId, turnStart(turn));
      for (let i = 0; i < 50; i++) {
        const thought: Delta = { thinking: [{ index: 0, text: `t${turn}.${i} ` }] };
        pushed.push(thought);
        publisher.pushDelta(runId, thought);
      }
      for (let i = 0; i < 200; i++) {
        const word: Delta = { content: `c${turn}.${i} ` };
        pushed.push(word);
        publisher.pushDelta(runId, word);
      }
    };

    await publisher.begin(runId, { ...started, runId });
    // Reader A follows live and stops after the second turn's first delta.
    const controller = new AbortController();
    const first: FeedEntry[] = [];
    const readerA = (async () => {
      let turns = 0;
      for await (const entry of readFeed(feed, runId, { signal: controller.signal }, none)) {
        first.push(entry);
        if (entry.event.type === 'event') turns++;
        if (turns === 2 && entry.event.type === 'delta') controller.abort();
      }
    })();
    burst(0);
    await nextTurn();
    burst(1);
    await readerA;
    // Reader B resumes after A's last cursor while the run goes on streaming.
    const cursor = first.at(-1)?.cursor;
    const readerB = collect(readFeed(feed, runId, { after: cursor }, none));
    await nextTurn();
    burst(2);
    await nextTurn();
    burst(3);
    await publisher.end(runId, {
      type: 'completed',
      output: 'ok',
      usage: { inputTokens: 0, outputTokens: 0 },
      requests: 4,
      toolCalls: 0,
      at: 0,
    });
    const second = await readerB;
    const joined = [...first, ...second];
    // Nothing lost, nothing twice: sequence numbers 1, 2, 3, … across the two readers.
    expect(joined.map((e) => e.seq)).toEqual(joined.map((_, i) => i + 1));
    expect(joined).toEqual(await feed.read(runId));
    // Each kind's text in order, as pushed, in fewer entries.
    const text = (deltas: Delta[], kind: 'content' | 'thinking'): string =>
      deltas
        .map((d) => (kind === 'content' ? (d.content ?? '') : (d.thinking?.[0]?.text ?? '')))
        .join('');
    const sent = joined.flatMap((e) => (e.event.type === 'delta' ? [e.event.delta] : []));
    expect(text(sent, 'content')).toBe(text(pushed, 'content'));
    expect(text(sent, 'thinking')).toBe(text(pushed, 'thinking'));
    // Per turn: its reasoning, then its content, after its model_start — one entry each here.
    expect(
      joined.map((e) => (e.event.type === 'delta' ? Object.keys(e.event.delta)[0] : e.event.type)),
    ).toEqual([
      'started',
      ...[0, 1, 2, 3].flatMap(() => ['event', 'thinking', 'content']),
      'completed',
    ]);
    expect(sent.length).toBeLessThan(pushed.length / 10);
    expect(errors).toEqual([]);
    expect(publisher.droppedDeltas).toBe(0);
  });
});
