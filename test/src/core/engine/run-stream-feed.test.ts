/**
 * The run stream's feed: what came before the reader is handed to it when it comes, the rest as it
 * comes, in the run's order — to an iterated view (one value behind the run, far behind, or
 * waiting: a value made while it waits reaches it after the producer's next step) and to a listener (golem/ui), which gets the typed events in the run's own call.
 */
import { RunError, type RunStreamEvent } from 'golem';
import { StreamAbandonedError } from '../../../../src/core/engine/delta-stream';
import type { RunEvent } from '../../../../src/core/engine/events';
import type { Result } from '../../../../src/core/engine/result';
import { RunStreamFeed, type RunEventListener } from '../../../../src/core/engine/run-stream-feed';

const turnStart = (turn: number): RunEvent =>
  ({ kind: 'model_start', turn, attempt: 1, request: { messages: [] } }) as unknown as RunEvent;
const result = { output: 'ab', messages: [], usage: {}, requests: 1 } as unknown as Result<string>;

/** What a listener is told: typed events, and answer text fragments as `{ text }`. */
type Told = RunStreamEvent<string> | { text: string };

/** A listener that records what it is told. */
function recorder(): RunEventListener<string> & {
  events: Told[];
  ends: ({ error: unknown } | undefined)[];
} {
  const events: Told[] = [];
  const ends: ({ error: unknown } | undefined)[] = [];
  return {
    events,
    ends,
    push: (event) => {
      events.push(event);
    },
    text: (text) => {
      events.push({ text });
    },
    end: (failure) => {
      ends.push(failure);
    },
  };
}

async function readAll<T>(iterator: AsyncIterator<T>): Promise<T[]> {
  const values: T[] = [];
  for (let step = await iterator.next(); step.done !== true; step = await iterator.next())
    values.push(step.value);
  return values;
}

describe('a listener (golem/ui)', () => {
  test('gets what came before it at once, then each event in the call that made it, then the end', () => {
    const feed = new RunStreamFeed<string>(() => undefined);
    feed.observe(turnStart(0));
    feed.push({ content: 'a' });
    const listener = recorder();
    feed.listen(listener);
    expect(listener.events).toEqual([{ type: 'turn-start', turn: 0, attempt: 1 }, { text: 'a' }]);
    feed.push({ content: 'b' });
    // Synchronously: no promise between the run and the listener.
    expect(listener.events.at(-1)).toEqual({ text: 'b' });
    // A fragment with more than text is told as its events; an empty text is not told.
    feed.push({ content: 'c', thinking: [{ index: 0, text: 'hm' }] });
    feed.push({ content: '' });
    expect(listener.events.slice(-2)).toEqual([
      { type: 'thinking-delta', turn: 0, text: 'hm' },
      { type: 'text-delta', turn: 0, text: 'c' },
    ]);
    expect(listener.ends).toEqual([]);
    feed.settle({ ok: true, result });
    expect(listener.events.at(-1)).toEqual({ type: 'finish', result });
    expect(listener.ends).toEqual([undefined]);
  });

  test('listening to a run that already ended gets all of it and the end', () => {
    const feed = new RunStreamFeed<string>(() => undefined);
    feed.observe(turnStart(0));
    feed.push({ content: 'ab' });
    feed.settle({ ok: true, result });
    const listener = recorder();
    feed.listen(listener);
    expect(listener.events).toEqual([
      { type: 'turn-start', turn: 0, attempt: 1 },
      { text: 'ab' },
      { type: 'finish', result },
    ]);
    expect(listener.ends).toEqual([undefined]);
  });

  test('a run failure is an error event; a failure that is no RunError is the end’s', () => {
    const failed = new RunStreamFeed<string>(() => undefined);
    const listener = recorder();
    failed.listen(listener);
    const runError = new RunError('model', new Error('down'));
    failed.settle({ ok: false, error: runError });
    expect(listener.events).toEqual([{ type: 'error', error: runError }]);
    expect(listener.ends).toEqual([undefined]);

    const broken = new RunStreamFeed<string>(() => undefined);
    const other = recorder();
    broken.listen(other);
    const storeDown = new Error('store down');
    broken.settle({ ok: false, error: storeDown });
    expect(other.events).toEqual([]);
    expect(other.ends).toEqual([{ error: storeDown }]);
  });

  test('its stop abandons the run: the next delta throws, and nothing more is told', () => {
    let abandoned = 0;
    const feed = new RunStreamFeed<string>(() => {
      abandoned += 1;
    });
    const listener = recorder();
    const stop = feed.listen(listener);
    feed.push({ content: 'a' });
    stop();
    stop();
    expect(abandoned).toBe(1);
    expect(() => {
      feed.push({ content: 'b' });
    }).toThrow(StreamAbandonedError);
    feed.settle({ ok: true, result });
    expect(listener.events).toEqual([{ text: 'a' }]);
    expect(listener.ends).toEqual([]);
  });

  test('a stream has one reader: listening after an iteration, or iterating after listening, throws', () => {
    const iterated = new RunStreamFeed<string>(() => undefined);
    iterated[Symbol.asyncIterator]();
    expect(() => iterated.listen(recorder())).toThrow(/already read by iterating the stream/);
    const listened = new RunStreamFeed<string>(() => undefined);
    listened.listen(recorder());
    expect(() => listened.textStream[Symbol.asyncIterator]()).toThrow(
      /already read by stream\.events/,
    );
  });
});

describe('an iterated view', () => {
  test('a burst made while the reader is busy is read in order, then a waiting read is answered', async () => {
    const feed = new RunStreamFeed<string>(() => undefined);
    const deltas = feed[Symbol.asyncIterator]();
    for (const content of ['a', 'b', 'c', 'd']) feed.push({ content });
    expect(await deltas.next()).toEqual({ value: { content: 'a' }, done: false });
    feed.push({ content: 'e' });
    const read = await Promise.all([deltas.next(), deltas.next(), deltas.next(), deltas.next()]);
    expect(read.map((step) => (step.value as { content: string }).content)).toEqual([
      'b',
      'c',
      'd',
      'e',
    ]);
    const waiting = deltas.next();
    feed.push({ content: 'f' });
    expect(await waiting).toEqual({ value: { content: 'f' }, done: false });
    feed.settle({ ok: true, result });
    expect(await deltas.next()).toEqual({ value: undefined, done: true });
  });

  test('events: before the reader, a burst, the waiting read, then finish', async () => {
    const feed = new RunStreamFeed<string>(() => undefined);
    feed.observe(turnStart(0));
    feed.push({ content: 'a' });
    const events = feed.events[Symbol.asyncIterator]();
    const first = await events.next();
    expect(first.value).toEqual({ type: 'turn-start', turn: 0, attempt: 1 });
    feed.push({ content: 'b' });
    feed.settle({ ok: true, result });
    const rest = await readAll(events);
    expect(rest).toEqual([
      { type: 'text-delta', turn: 0, text: 'a' },
      { type: 'text-delta', turn: 0, text: 'b' },
      { type: 'finish', result },
    ]);
  });

  test('a reader that stops drops what it did not read and ends a later read', async () => {
    let abandoned = 0;
    const feed = new RunStreamFeed<string>(() => {
      abandoned += 1;
    });
    const text = feed.textStream[Symbol.asyncIterator]();
    feed.push({ content: 'a' });
    feed.push({ content: 'b' });
    expect(await text.next()).toEqual({ value: 'a', done: false });
    await text.return?.();
    expect(abandoned).toBe(1);
    expect(await text.next()).toEqual({ value: undefined, done: true });
    expect(() => {
      feed.push({ content: 'c' });
    }).toThrow(StreamAbandonedError);
  });

  test('a reader keeping up with a producer that makes a value per microtask stays one value behind it', async () => {
    const feed = new RunStreamFeed<string>(() => undefined);
    const deltas = feed[Symbol.asyncIterator]();
    let made = 0;
    // The reader first: its read waits for the first value.
    const reading = (async () => {
      // What the reader got, and how many values the producer had made by then.
      const seen: [string | undefined, number][] = [];
      for (let step = await deltas.next(); step.done !== true; step = await deltas.next())
        seen.push([step.value.content, made]);
      return seen;
    })();
    // An instant model: a value, then an await of its callback's answer (resolved at once).
    const produce = (async () => {
      for (const content of ['a', 'b', 'c', 'd']) {
        feed.push({ content });
        made += 1;
        await Promise.resolve();
      }
      feed.settle({ ok: true, result });
    })();
    const seen = await reading;
    await produce;
    // The first value waited for reaches the reader once the producer has made the next one;
    // from then on each read finds its value made (all of them, in order, then the end).
    expect(seen).toEqual([
      ['a', 2],
      ['b', 3],
      ['c', 4],
      ['d', 4],
    ]);
  });

  test('a run that ends right after a value made while the reader waited: the value, then the end', async () => {
    const feed = new RunStreamFeed<string>(() => undefined);
    const deltas = feed[Symbol.asyncIterator]();
    const waiting = deltas.next();
    feed.push({ content: 'a' });
    feed.settle({ ok: true, result });
    expect(await waiting).toEqual({ value: { content: 'a' }, done: false });
    expect(await deltas.next()).toEqual({ value: undefined, done: true });

    const typed = new RunStreamFeed<string>(() => undefined);
    typed.observe(turnStart(0));
    const events = typed.events[Symbol.asyncIterator]();
    expect((await events.next()).value).toEqual({ type: 'turn-start', turn: 0, attempt: 1 });
    const next = events.next();
    typed.push({ content: 'b' });
    typed.settle({ ok: true, result });
    expect(await next).toEqual({ value: { type: 'text-delta', turn: 0, text: 'b' }, done: false });
    expect(await readAll(events)).toEqual([{ type: 'finish', result }]);
  });

  test('a reader that stops while a value is on its way to its waiting read: the read ends', async () => {
    const feed = new RunStreamFeed<string>(() => undefined);
    const deltas = feed[Symbol.asyncIterator]();
    const waiting = deltas.next();
    feed.push({ content: 'a' });
    await deltas.return?.();
    expect(await waiting).toEqual({ value: undefined, done: true });
    expect(await deltas.next()).toEqual({ value: undefined, done: true });
  });

  test('a failure that is no RunError rejects the waiting read', async () => {
    const feed = new RunStreamFeed<string>(() => undefined);
    const events = feed.events[Symbol.asyncIterator]();
    const waiting = events.next();
    feed.settle({ ok: false, error: new Error('store down') });
    await expect(waiting).rejects.toThrow('store down');
  });
});

describe('a stream given up (discard)', () => {
  test('keeps nothing for a reader, ends quietly, and refuses a reader', () => {
    const feed = new RunStreamFeed<string>(() => undefined);
    feed.observe(turnStart(0));
    feed.push({ content: 'a' });
    feed.discard();
    for (let i = 0; i < 100; i++) feed.push({ content: 'b' });
    feed.observe(turnStart(1));
    // What came before and after: nothing kept (the buffer a reader would read stays empty).
    expect((feed as unknown as { buffer: unknown[] }).buffer).toHaveLength(0);
    feed.settle({ ok: true, result });
    expect(() => feed[Symbol.asyncIterator]()).toThrow(/already read by nobody/);
    expect(() => feed.listen(recorder())).toThrow(TypeError);
  });
});
