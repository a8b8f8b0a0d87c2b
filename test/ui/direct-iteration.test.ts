/**
 * `toUIMessageStream`'s stream read directly (`for await`, the SSE and Node pipes) and through its
 * queue (`getReader`, `Response`) gives the same chunks and the same text, fails alike, locks
 * alike, and stops the run alike when its reader stops.
 */
import { Agent, RunError, type RunStream } from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';
import {
  createUIMessageStreamResponse,
  formatUIMessageChunk,
  pipeUIMessageStreamToResponse,
  toSseStream,
  toUIMessageStream,
  UI_MESSAGE_STREAM_DONE,
  type NodeResponseLike,
  type UIEventSource,
  type UIMessageChunk,
  type UIMessageStreamOptions,
} from 'golem/ui';
import type { RunStreamEvent } from '../../src/core/engine/stream-event-types';
import type { Result } from '../../src/core/engine/result';
import { collect, eventSource } from './ai-client';
import { failingToolAgent, hangingAgent, weatherAgent } from './test-agents';

const usage = { inputTokens: 3, outputTokens: 5 };
const done = (output: string): RunStreamEvent<string> => ({
  type: 'finish',
  result: { output, messages: [], usage, requests: 1, toolCalls: 0 } as unknown as Result<string>,
});

/** What a reading gave: the chunks, then the error it ended with, if any. */
interface Reading<T> {
  values: T[];
  error?: unknown;
}

async function byIteration<T>(stream: AsyncIterable<T>): Promise<Reading<T>> {
  const values: T[] = [];
  try {
    for await (const value of stream) values.push(value);
    return { values };
  } catch (error) {
    return { values, error };
  }
}

async function byReader<T>(stream: ReadableStream<T>): Promise<Reading<T>> {
  const values: T[] = [];
  const reader = stream.getReader();
  try {
    for (;;) {
      const next = await reader.read();
      if (next.done) return { values };
      values.push(next.value);
    }
  } catch (error) {
    return { values, error };
  }
}

/** A run source whose event iteration fails at once (the run could not start). */
function rejectingSource(): UIEventSource<string> {
  return {
    events: {
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.reject(new Error('store down')),
      }),
    },
  };
}

/** Many text deltas, each event already resolved: the source runs far ahead of a slow reader. */
function manyDeltas(count: number): RunStreamEvent<string>[] {
  const events: RunStreamEvent<string>[] = [{ type: 'turn-start', turn: 0, attempt: 1 }];
  for (let i = 0; i < count; i++) events.push({ type: 'text-delta', turn: 0, text: `t${i} ` });
  events.push(done('x'));
  return events;
}

const options = { messageId: 'm1' };

interface IterableValues<T> {
  values(options: { preventCancel: boolean }): AsyncIterable<T>;
}

describe('for await and getReader give the same chunks', () => {
  test('a run with text, a tool call and its output, then finish', async () => {
    const direct = await byIteration(toUIMessageStream(weatherAgent().runStream('Hi'), options));
    const queued = await byReader(toUIMessageStream(weatherAgent().runStream('Hi'), options));
    expect(direct).toEqual(queued);
    expect(direct.error).toBeUndefined();
    expect(direct.values.map((c) => c.type)).toEqual([
      'start',
      'start-step',
      'text-start',
      'text-delta',
      'text-end',
      'tool-input-start',
      'tool-input-delta',
      'tool-input-delta',
      'tool-input-available',
      'tool-output-available',
      'finish-step',
      'start-step',
      'text-start',
      'text-delta',
      'text-delta',
      'text-delta',
      'text-end',
      'finish-step',
      'finish',
    ]);
  });

  test('a failed run: the tool error, the error chunk, finish', async () => {
    const runs = [failingToolAgent().runStream('Go'), failingToolAgent().runStream('Go')];
    const direct = await byIteration(toUIMessageStream(runs[0] as RunStream<string>, options));
    const queued = await byReader(toUIMessageStream(runs[1] as RunStream<string>, options));
    await Promise.all(runs.map((run) => run.result.catch(() => undefined)));
    expect(direct).toEqual(queued);
    expect(direct.values.slice(-2)).toEqual([
      { type: 'error', errorText: 'The run failed at the "tool" stage (ToolError).' },
      expect.objectContaining({ type: 'finish', finishReason: 'error' }),
    ]);
  });

  test('events that stop early, and a run that cannot start', async () => {
    const early: RunStreamEvent<string>[] = [
      { type: 'turn-start', turn: 0, attempt: 1 },
      { type: 'text-delta', turn: 0, text: 'Hi' },
    ];
    const direct = await byIteration(toUIMessageStream(eventSource(early), options));
    expect(direct).toEqual(await byReader(toUIMessageStream(eventSource(early), options)));
    expect(direct.values.at(-1)).toEqual({
      type: 'abort',
      reason: 'the run stopped before it ended',
    });
    const rejected = await byIteration(toUIMessageStream(rejectingSource(), options));
    expect(rejected).toEqual(await byReader(toUIMessageStream(rejectingSource(), options)));
    expect(rejected.values.slice(-2)).toEqual([
      { type: 'error', errorText: 'The run could not start (Error).' },
      { type: 'finish', finishReason: 'error', messageMetadata: { pending: null } },
    ]);
  });

  test('an option that throws errors the stream after the chunks before it, both ways', async () => {
    const events: RunStreamEvent<string>[] = [
      { type: 'turn-start', turn: 0, attempt: 1 },
      { type: 'text-delta', turn: 0, text: 'Hi' },
      done('Hi'),
    ];
    const throwing: UIMessageStreamOptions<string> = {
      messageId: 'm1',
      messageMetadata: (part) => {
        if (part.type === 'finish') throw new Error('metadata broke');
        return undefined;
      },
    };
    const stream = toUIMessageStream(eventSource(events), throwing);
    const direct = await byIteration(stream);
    const queued = await byReader(toUIMessageStream(eventSource(events), throwing));
    expect(direct).toEqual(queued);
    expect((direct.error as Error).message).toBe('metadata broke');
    expect(direct.values.map((c) => c.type)).toEqual([
      'start',
      'start-step',
      'text-start',
      'text-delta',
    ]);
    // The stream is errored and unlocked, as after a native iteration that failed.
    expect(stream.locked).toBe(false);
    await expect(stream.getReader().read()).rejects.toThrow('metadata broke');
  });

  test('a run stream already read fails both ways with its TypeError', async () => {
    const claimed = () => {
      const run = new Agent({ model: new ScriptedModel([textResponse('Hi')]) }).runStream('Hi');
      run.events[Symbol.asyncIterator]();
      return run;
    };
    const direct = await byIteration(toUIMessageStream(claimed(), options));
    const queued = await byReader(toUIMessageStream(claimed(), options));
    expect(direct.error).toMatchObject({ name: 'TypeError', message: /already read/ });
    expect(queued.error).toMatchObject({ name: 'TypeError', message: /already read/ });
    expect(direct.values).toEqual(queued.values);
  });

  test('a reader far behind the run still gets every chunk, in order', async () => {
    const events = manyDeltas(300);
    const slow: UIMessageChunk[] = [];
    for await (const chunk of toUIMessageStream(eventSource(events), options)) {
      slow.push(chunk);
      if (slow.length % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const queued = await byReader(toUIMessageStream(eventSource(events), options));
    expect(slow).toEqual(queued.values);
    expect(slow.filter((c) => c.type === 'text-delta')).toHaveLength(300);
  });

  test('next() called again before the previous one settled answers in order', async () => {
    const events = manyDeltas(5);
    const iterator = toUIMessageStream(eventSource(events), options)[Symbol.asyncIterator]();
    const steps = await Promise.all(Array.from({ length: 12 }, () => iterator.next()));
    const queued = await byReader(toUIMessageStream(eventSource(events), options));
    expect(steps.filter((s) => s.done !== true).map((s) => s.value)).toEqual(queued.values);
    expect(steps.slice(queued.values.length).every((s) => s.done === true)).toBe(true);
  });
});

describe('locking', () => {
  test('an iteration locks the stream: a second one and getReader throw; the end releases it', async () => {
    const stream = toUIMessageStream(eventSource(manyDeltas(3)), options);
    const iterator = stream[Symbol.asyncIterator]();
    expect(stream.locked).toBe(true);
    expect(() => stream.getReader()).toThrow(/locked/);
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/locked/);
    await expect(stream.pipeTo(new WritableStream())).rejects.toThrow(/locked/);
    while ((await iterator.next()).done !== true);
    expect(stream.locked).toBe(false);
    // Closed, as a stream read to its end is.
    await expect(stream.getReader().read()).resolves.toEqual({ done: true, value: undefined });
  });

  test('the stream is a plain ReadableStream: piping and teeing read it through its queue', async () => {
    const events = manyDeltas(3);
    const all = (await byIteration(toUIMessageStream(eventSource(events), options))).values;
    const stream = toUIMessageStream(eventSource(events), options);
    expect(Object.getPrototypeOf(stream)).toBe(ReadableStream.prototype);
    expect(Object.keys(stream)).toEqual([]);
    const piped = stream.pipeThrough(new TransformStream<UIMessageChunk, UIMessageChunk>());
    expect(stream.locked).toBe(true);
    expect((await byReader(piped)).values).toEqual(all);
    const [left, right] = toUIMessageStream(eventSource(events), options).tee();
    const [a, b] = await Promise.all([byReader(left), byReader(right)]);
    expect(a.values).toEqual(all);
    expect(b.values).toEqual(all);
  });

  test('a stream with a reader cannot be iterated', () => {
    const stream = toUIMessageStream(eventSource(manyDeltas(1)), options);
    stream.getReader();
    expect(() => stream[Symbol.asyncIterator]()).toThrow(/locked/);
  });

  test('a stream read a little through its reader is iterated from where the reader stopped', async () => {
    const events = manyDeltas(4);
    const all = (await byReader(toUIMessageStream(eventSource(events), options))).values;
    const stream = toUIMessageStream(eventSource(events), options);
    const reader = stream.getReader();
    const first = [(await reader.read()).value, (await reader.read()).value];
    reader.releaseLock();
    const rest = await byIteration(stream);
    expect([...first, ...rest.values]).toEqual(all);
  });

  test('values({ preventCancel: true }): a break leaves the stream open to read on', async () => {
    const events = manyDeltas(4);
    const all = (await byReader(toUIMessageStream(eventSource(events), options))).values;
    const source = eventSource(events);
    const stream = toUIMessageStream(source, options);
    const first: UIMessageChunk[] = [];
    // `values` is the stream's own iteration, with its options (not in the DOM lib's type).
    const values = (stream as unknown as IterableValues<UIMessageChunk>).values({
      preventCancel: true,
    });
    for await (const chunk of values) {
      first.push(chunk);
      if (first.length === 3) break;
    }
    expect(source.returned()).toBe(false);
    expect(stream.locked).toBe(false);
    const rest = await byReader(stream);
    expect([...first, ...rest.values]).toEqual(all);
  });
});

describe('a reader that stops stops the run', () => {
  test('break out of for await aborts the run; its error keeps the evidence', async () => {
    let aborted = false;
    const run = hangingAgent(() => {
      aborted = true;
    }).runStream('Go');
    const stream = toUIMessageStream(run, options);
    for await (const chunk of stream) if (chunk.type === 'text-delta') break;
    const error: unknown = await run.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(aborted).toBe(true);
    expect(RunError.is(error)).toBe(true);
    expect((error as RunError).partial?.interrupted?.content).toBe('Partial ');
    expect(stream.locked).toBe(false);
    await expect(stream.getReader().read()).resolves.toEqual({ done: true, value: undefined });
  });

  test('break out of the SSE text stream, or cancelling a Response body, returns the events', async () => {
    const viaSse = eventSource(manyDeltas(10));
    for await (const frame of toSseStream(toUIMessageStream(viaSse, options)))
      if (frame.includes('text-delta')) break;
    expect(viaSse.returned()).toBe(true);
    const viaResponse = eventSource(manyDeltas(10));
    const body = createUIMessageStreamResponse(viaResponse).body as ReadableStream<Uint8Array>;
    const reader = body.getReader();
    await reader.read();
    await reader.cancel();
    expect(viaResponse.returned()).toBe(true);
  });
});

/** A Node response that keeps what is written. */
function memoryResponse(): NodeResponseLike & { text: () => string } {
  let text = '';
  const res = {
    writableEnded: false,
    writableFinished: false,
    destroyed: false,
    writeHead: () => res,
    write: (chunk: string) => {
      text += chunk;
      return true;
    },
    end: (chunk?: string) => {
      if (chunk !== undefined) text += chunk;
      res.writableEnded = res.writableFinished = true;
      return res;
    },
    once: () => res,
    removeListener: () => res,
    text: () => text,
  };
  return res;
}

describe('the SSE text is the same every way', () => {
  test('for await, getReader, a Response, the Node pipe, and a chunk stream of your own', async () => {
    const events = manyDeltas(20);
    const chunks = (await byReader(toUIMessageStream(eventSource(events), options))).values;
    const expected = chunks.map(formatUIMessageChunk).join('') + UI_MESSAGE_STREAM_DONE;
    const sse = () => toSseStream(toUIMessageStream(eventSource(events), options));

    const iterated = await byIteration(sse());
    expect(iterated.values.join('')).toBe(expected);
    // One frame per chunk, then [DONE].
    expect(iterated.values).toHaveLength(chunks.length + 1);
    expect((await byReader(sse())).values).toEqual(iterated.values);
    expect(await createUIMessageStreamResponse(eventSource(events), options).text()).toBe(expected);
    const fromStream = toUIMessageStream(eventSource(events), options);
    expect(await createUIMessageStreamResponse(fromStream).text()).toBe(expected);
    expect(fromStream.locked).toBe(false);

    const res = memoryResponse();
    await pipeUIMessageStreamToResponse(eventSource(events), res, options);
    expect(res.text()).toBe(expected);
    const resFromStream = memoryResponse();
    await pipeUIMessageStreamToResponse(
      toUIMessageStream(eventSource(events), options),
      resFromStream,
    );
    expect(resFromStream.text()).toBe(expected);

    const own = new ReadableStream<UIMessageChunk>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(chunk);
        controller.close();
      },
    });
    expect(await createUIMessageStreamResponse(own).text()).toBe(expected);
  });

  test('a chunk stream whose reader read a part of it: the rest goes out, then [DONE]', async () => {
    const events = manyDeltas(3);
    const chunks = (await byReader(toUIMessageStream(eventSource(events), options))).values;
    const stream = toUIMessageStream(eventSource(events), options);
    const reader = stream.getReader();
    await reader.read();
    reader.releaseLock();
    const text = await createUIMessageStreamResponse(stream).text();
    expect(text).toBe(chunks.slice(1).map(formatUIMessageChunk).join('') + UI_MESSAGE_STREAM_DONE);
  });

  test('a failure errors the SSE stream and rejects the Node pipe, after the frames before it', async () => {
    const events: RunStreamEvent<string>[] = [
      { type: 'turn-start', turn: 0, attempt: 1 },
      done(''),
    ];
    const throwing: UIMessageStreamOptions<string> = {
      messageMetadata: (part) => {
        if (part.type === 'finish') throw new Error('metadata broke');
        return undefined;
      },
    };
    const iterated = await byIteration(
      toSseStream(toUIMessageStream(eventSource(events), throwing)),
    );
    expect((iterated.error as Error).message).toBe('metadata broke');
    expect(iterated.values).toHaveLength(2);
    const body = createUIMessageStreamResponse(eventSource(events), throwing).body;
    await expect(collect(body as ReadableStream<Uint8Array>)).rejects.toThrow('metadata broke');
    await expect(
      pipeUIMessageStreamToResponse(eventSource(events), memoryResponse(), throwing),
    ).rejects.toThrow('metadata broke');
  });
});
