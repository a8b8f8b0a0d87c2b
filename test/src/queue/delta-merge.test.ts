/**
 * The worker's publisher merges consecutive text fragments of one kind within a batch (one turn of
 * the event loop) into one `delta` event: content text, one reasoning block's text, one tool call's
 * arguments continued by fragments without an id or name. Never across another event, another
 * shape, a batch, or past MERGED_TEXT_MAX; the caller's objects are never changed; the drop counter
 * counts deltas as pushed.
 */
import type { Delta } from 'golem';
import type { RunFeedEvent, RunFeedPort } from 'golem/queue';
import { MERGED_TEXT_MAX } from '../../../src/queue/delta-merge';
import { FeedPublisher } from '../../../src/queue/feed-publisher';

/** A feed that records each append's events. */
function recordingFeed() {
  const appends: RunFeedEvent[][] = [];
  const release: (() => void)[] = [];
  let hold = false;
  const feed: RunFeedPort = {
    append: (_runId, events) => {
      appends.push([...events]);
      if (!hold) return Promise.resolve(undefined);
      return new Promise((resolve) => {
        release.push(() => {
          resolve(undefined);
        });
      });
    },
    read: () => Promise.resolve([]),
    listen: () => Promise.resolve(() => Promise.resolve()),
  };
  return {
    feed,
    appends,
    release,
    holdWrites: () => {
      hold = true;
    },
  };
}

const started: RunFeedEvent = {
  type: 'started',
  runId: 'r',
  kind: 'start',
  attempt: 1,
  worker: 'w',
  at: 0,
};
const done: RunFeedEvent = {
  type: 'completed',
  output: 'ok',
  usage: { inputTokens: 0, outputTokens: 0 },
  requests: 1,
  toolCalls: 0,
  at: 0,
};
const modelStart: RunFeedEvent = {
  type: 'event',
  event: { kind: 'model_start', turn: 2, attempt: 1 },
};
const text = (content: string): Delta => ({ content });
const think = (t: string, index = 0): Delta => ({ thinking: [{ index, text: t }] });
const args = (argsFragment: string, index = 0): Delta => ({ toolCalls: [{ index, argsFragment }] });
const deltas = (events: RunFeedEvent[]): Delta[] =>
  events.flatMap((e) => (e.type === 'delta' ? [e.delta] : []));

async function publish(push: (p: FeedPublisher) => void): Promise<RunFeedEvent[]> {
  const { feed, appends } = recordingFeed();
  const publisher = new FeedPublisher(feed, () => undefined);
  publisher.push('r', started);
  push(publisher);
  await publisher.end('r', done);
  expect(appends).toHaveLength(1);
  return appends[0] ?? [];
}

test('consecutive content fragments become one delta with their text, in order', async () => {
  const pushed = ['a', 'b', 'c'].map(text);
  const events = await publish((p) => {
    for (const d of pushed) p.pushDelta('r', d);
  });
  expect(events).toEqual([started, { type: 'delta', delta: { content: 'abc' } }, done]);
  // The caller's fragments are untouched.
  expect(pushed).toEqual([{ content: 'a' }, { content: 'b' }, { content: 'c' }]);
});

test('`push` of a delta event merges too; a lone fragment is sent as the object it came as', async () => {
  const lone: RunFeedEvent = { type: 'delta', delta: { content: 'x' } };
  const events = await publish((p) => {
    p.push('r', { type: 'delta', delta: text('a') });
    p.push('r', { type: 'delta', delta: text('b') });
    p.push('r', modelStart);
    p.push('r', lone);
  });
  expect(events).toEqual([
    started,
    { type: 'delta', delta: { content: 'ab' } },
    modelStart,
    lone,
    done,
  ]);
  expect(events[3]).toBe(lone);
});

test('never across another event or another kind; reasoning by its block index', async () => {
  const events = await publish((p) => {
    p.pushDelta('r', think('hm'));
    p.pushDelta('r', think('m.'));
    p.pushDelta('r', think('x', 1));
    p.pushDelta('r', text('a'));
    p.push('r', modelStart);
    p.pushDelta('r', text('b'));
    p.pushDelta('r', { thinking: [{ index: 1, signature: 'sig' }] });
    p.pushDelta('r', think('y', 1));
    p.pushDelta('r', think('z', 1));
  });
  expect(events).toEqual([
    started,
    { type: 'delta', delta: think('hmm.') },
    { type: 'delta', delta: think('x', 1) },
    { type: 'delta', delta: text('a') },
    modelStart,
    { type: 'delta', delta: text('b') },
    { type: 'delta', delta: { thinking: [{ index: 1, signature: 'sig' }] } },
    { type: 'delta', delta: think('yz', 1) },
    done,
  ]);
});

test("a tool call's fragments merge from its first (id and name) while they continue it", async () => {
  const first: Delta = { toolCalls: [{ index: 0, id: 'c1', name: 'add', argsFragment: '{"a"' }] };
  const events = await publish((p) => {
    p.pushDelta('r', first);
    p.pushDelta('r', args(':1'));
    p.pushDelta('r', args('}'));
    // Another call at another index, then a new call at index 0 (its id): never joined.
    p.pushDelta('r', { toolCalls: [{ index: 1, id: 'c2', name: 'add' }] });
    p.pushDelta('r', args('{}', 1));
    p.pushDelta('r', { toolCalls: [{ index: 0, id: 'c3', name: 'add', argsFragment: '{' }] });
    p.pushDelta('r', args('}', 1)); // index 1 after index 0: not consecutive
    // Fragments carrying several calls, or a call and text, are left alone.
    p.pushDelta('r', { toolCalls: [args('x', 0).toolCalls![0]!, args('y', 1).toolCalls![0]!] });
    p.pushDelta('r', args('z', 1));
    p.pushDelta('r', { content: 'hi', toolCalls: [{ index: 0, argsFragment: 'q' }] });
    p.pushDelta('r', text('!'));
  });
  expect(deltas(events)).toEqual([
    { toolCalls: [{ index: 0, id: 'c1', name: 'add', argsFragment: '{"a":1}' }] },
    { toolCalls: [{ index: 1, id: 'c2', name: 'add', argsFragment: '{}' }] },
    { toolCalls: [{ index: 0, id: 'c3', name: 'add', argsFragment: '{' }] },
    args('}', 1),
    {
      toolCalls: [
        { index: 0, argsFragment: 'x' },
        { index: 1, argsFragment: 'y' },
      ],
    },
    args('z', 1),
    { content: 'hi', toolCalls: [{ index: 0, argsFragment: 'q' }] },
    text('!'),
  ]);
  expect(first.toolCalls?.[0]?.argsFragment).toBe('{"a"');
});

test('fragments with other fields are not merged (nothing a subscriber reads is lost)', async () => {
  const odd = { content: 'b', extra: 1 } as Delta;
  const events = await publish((p) => {
    p.pushDelta('r', text('a'));
    p.pushDelta('r', odd);
    p.pushDelta('r', { content: 'c', thinking: undefined });
    p.pushDelta('r', text('d'));
  });
  expect(deltas(events)).toEqual([text('a'), odd, text('cd')]);
});

test('a merged delta stays within MERGED_TEXT_MAX; a larger fragment goes as it came', async () => {
  const chunk = 'x'.repeat(1000);
  const n = Math.ceil((MERGED_TEXT_MAX * 2.5) / chunk.length);
  const big = 'y'.repeat(MERGED_TEXT_MAX + 1);
  const events = await publish((p) => {
    for (let i = 0; i < n; i++) p.pushDelta('r', text(chunk));
    p.pushDelta('r', text(big));
    p.pushDelta('r', text('z'));
  });
  const sent = deltas(events).map((d) => d.content ?? '');
  expect(sent.join('')).toBe(chunk.repeat(n) + big + 'z');
  expect(sent.length).toBe(Math.ceil((n * chunk.length) / MERGED_TEXT_MAX) + 2);
  for (const s of sent.slice(0, -2)) expect(s.length).toBeLessThanOrEqual(MERGED_TEXT_MAX);
  expect(sent.at(-2)).toBe(big);
  expect(sent.at(-1)).toBe('z');
});

test('each batch merges its own fragments; a sent batch is never changed', async () => {
  const { feed, appends } = recordingFeed();
  const publisher = new FeedPublisher(feed, () => undefined);
  publisher.pushDelta('r', text('a'));
  publisher.pushDelta('r', text('b'));
  await new Promise((resolve) => setImmediate(resolve));
  publisher.pushDelta('r', text('c'));
  publisher.pushDelta('r', text('d'));
  await publisher.end('r', done);
  expect(appends).toEqual([
    [{ type: 'delta', delta: text('ab') }],
    [{ type: 'delta', delta: text('cd') }, done],
  ]);
});

test('deltas count as pushed against maxBuffered: merging drops the same ones', async () => {
  const { feed, appends, release, holdWrites } = recordingFeed();
  holdWrites();
  const publisher = new FeedPublisher(feed, () => undefined, { maxBuffered: 5 });
  for (const c of 'abc') publisher.pushDelta('r', text(c));
  await new Promise((resolve) => setImmediate(resolve)); // 3 in flight
  for (const c of 'defg') publisher.pushDelta('r', text(c)); // d, e join; f, g dropped
  expect(publisher.droppedDeltas).toBe(2);
  const ending = publisher.end('r', done); // endings are never dropped
  for (const r of release) r();
  await new Promise((resolve) => setImmediate(resolve));
  for (const r of release) r();
  await ending;
  expect(appends).toEqual([
    [{ type: 'delta', delta: text('abc') }],
    [{ type: 'delta', delta: text('de') }, done],
  ]);
});

test('runs interleaved merge apart; a run forgotten after its writes merges afresh when it comes back', async () => {
  const { feed, appends } = recordingFeed();
  const publisher = new FeedPublisher(feed, () => undefined);
  for (const c of 'abc') {
    publisher.pushDelta('r1', text(c));
    publisher.pushDelta('r2', text(c.toUpperCase()));
  }
  await publisher.end('r1', done);
  await publisher.end('r2', done);
  // Both written: the publisher keeps nothing of either run.
  publisher.pushDelta('r1', text('x'));
  publisher.pushDelta('r1', text('y'));
  await publisher.end('r1', done);
  expect(appends).toEqual([
    [{ type: 'delta', delta: text('abc') }, done],
    [{ type: 'delta', delta: text('ABC') }, done],
    [{ type: 'delta', delta: text('xy') }, done],
  ]);
});
