/**
 * A golem run stream given to `toUIMessageStream` is listened to (its typed events are mapped as
 * the run makes them, with no promise per event); any other event source is iterated. Both give
 * the same chunks, fail alike, and stop the run alike.
 */
import { Agent, RunError, RunInputError, type RunStream } from 'golem';
import { ScriptedModel, textResponse } from 'golem/testing';
import {
  toUIMessageStream,
  type UIEventSource,
  type UIMessageChunk,
  type UIMessageStreamOptions,
} from 'golem/ui';
import { StreamAbandonedError } from '../../src/core/engine/delta-stream';
import { RunStreamFeed } from '../../src/core/engine/run-stream-feed';
import { failingToolAgent, hangingAgent, weatherAgent } from './test-agents';

const options = { messageId: 'm1' };

interface Reading {
  chunks: UIMessageChunk[];
  error?: unknown;
}

async function read(stream: AsyncIterable<UIMessageChunk>): Promise<Reading> {
  const chunks: UIMessageChunk[] = [];
  try {
    for await (const chunk of stream) chunks.push(chunk);
    return { chunks };
  } catch (error) {
    return { chunks, error };
  }
}

/** The same run's events, but not a golem run stream: `toUIMessageStream` iterates them. */
function iterated<Output>(run: RunStream<Output>): UIEventSource<Output> {
  return { events: run.events };
}

afterEach(() => {
  jest.restoreAllMocks();
});

describe('listened and iterated give the same chunks', () => {
  test('a run with text, a streamed tool call and its output; the listened path is the one taken', async () => {
    const listen = jest.spyOn(RunStreamFeed.prototype, 'listen');
    const listened = await read(toUIMessageStream(weatherAgent().runStream('Weather?'), options));
    expect(listen).toHaveBeenCalledTimes(1);
    const other = await read(
      toUIMessageStream(iterated(weatherAgent().runStream('Weather?')), options),
    );
    expect(listen).toHaveBeenCalledTimes(1);
    expect(listened).toEqual(other);
    expect(listened.chunks.filter((c) => c.type === 'text-delta').map((c) => c.delta)).toEqual([
      'Let me check. ',
      'It ',
      'is ',
      'sunny.',
    ]);
    expect(listened.chunks.at(-1)).toMatchObject({ type: 'finish' });
  });

  test('a reader far behind the run gets every chunk, in order', async () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${i} `);
    const slow: UIMessageChunk[] = [];
    for await (const chunk of toUIMessageStream(
      weatherAgent({ words, ahead: true }).runStream('Go'),
      options,
    )) {
      slow.push(chunk);
      if (slow.length % 7 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    const other = await read(
      toUIMessageStream(iterated(weatherAgent({ words, ahead: true }).runStream('Go')), options),
    );
    expect(slow).toEqual(other.chunks);
    expect(slow.filter((c) => c.type === 'text-delta')).toHaveLength(301);
  });

  test('a failed run, and a run that cannot start (its failure is no RunError)', async () => {
    const failing = failingToolAgent;
    const failed = await read(toUIMessageStream(failing().runStream('Go'), options));
    expect(failed).toEqual(
      await read(toUIMessageStream(iterated(failing().runStream('Go')), options)),
    );
    expect(failed.chunks.map((c) => c.type)).toContain('tool-output-error');

    const agent = new Agent({ model: new ScriptedModel([textResponse('x')]) });
    const run = agent.runStream(42 as unknown as string);
    const invalid = await read(toUIMessageStream(run, options));
    await expect(run.result).rejects.toBeInstanceOf(RunInputError);
    const other = agent.runStream(42 as unknown as string);
    expect(invalid).toEqual(await read(toUIMessageStream(iterated(other), options)));
    await expect(other.result).rejects.toBeInstanceOf(RunInputError);
    expect(invalid.chunks.slice(-2)).toEqual([
      { type: 'error', errorText: 'The run could not start (RunInputError).' },
      { type: 'finish', finishReason: 'error', messageMetadata: { pending: null } },
    ]);
  });

  test('next() called again before the previous one settled answers in order', async () => {
    const iterator = toUIMessageStream(weatherAgent().runStream('Weather?'), options)[
      Symbol.asyncIterator
    ]();
    const steps = await Promise.all(Array.from({ length: 40 }, () => iterator.next()));
    const other = await read(
      toUIMessageStream(iterated(weatherAgent().runStream('Weather?')), options),
    );
    expect(steps.filter((s) => s.done !== true).map((s) => s.value)).toEqual(other.chunks);
    expect(steps.slice(other.chunks.length).every((s) => s.done === true)).toBe(true);
  });
});

describe('an option that throws', () => {
  test('errors the stream after the chunks before it; the run itself completes', async () => {
    const throwing: UIMessageStreamOptions<string> = {
      messageId: 'm1',
      messageMetadata: (part) => {
        if (part.type === 'finish') throw new Error('metadata broke');
        return undefined;
      },
    };
    const run = weatherAgent().runStream('Weather?');
    const stream = toUIMessageStream(run, throwing);
    const reading = await read(stream);
    expect((reading.error as Error).message).toBe('metadata broke');
    expect(reading.chunks.some((c) => c.type === 'finish')).toBe(false);
    expect(reading.chunks.filter((c) => c.type === 'text-delta')).toHaveLength(4);
    await expect(run.result).resolves.toMatchObject({ output: 'It is sunny.' });
    expect(stream.locked).toBe(false);
  });
});

describe('cancelling stops the run', () => {
  test('before the first read', async () => {
    const run = hangingAgent(() => undefined).runStream('Go');
    const stream = toUIMessageStream(run, options);
    await stream.cancel('gone');
    const error: unknown = await run.result.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(RunError.is(error)).toBe(true);
    // The reader stopped the run, and the error says so.
    expect((error as RunError).cause).toBeInstanceOf(StreamAbandonedError);
  });

  test('while a read waits: the read ends, the run is aborted with its evidence', async () => {
    let aborted = false;
    const run = hangingAgent(() => {
      aborted = true;
    }).runStream('Go');
    const stream = toUIMessageStream(run, options);
    const reader = stream.getReader();
    const seen: string[] = [];
    for (;;) {
      const next = await reader.read();
      if (next.done) throw new Error('ended early');
      seen.push(next.value.type);
      if (next.value.type === 'text-delta') break;
    }
    const waiting = reader.read();
    await reader.cancel('gone');
    await expect(waiting).resolves.toEqual({ done: true, value: undefined });
    const error = (await run.result.then(
      () => undefined,
      (e: unknown) => e,
    )) as RunError;
    expect(aborted).toBe(true);
    expect(error.partial?.interrupted?.content).toBe('Partial ');
    expect(seen).toEqual(['start', 'start-step', 'text-start', 'text-delta']);
  });

  test('a for await over the direct iteration: a waiting next resolves done on return', async () => {
    const run = hangingAgent(() => undefined).runStream('Go');
    const iterator = toUIMessageStream(run, options)[Symbol.asyncIterator]();
    const types: string[] = [];
    for (;;) {
      const step = await iterator.next();
      if (step.done === true) throw new Error('ended early');
      types.push(step.value.type);
      if (step.value.type === 'text-delta') break;
    }
    const waiting = iterator.next();
    await iterator.return?.();
    await expect(waiting).resolves.toEqual({ done: true, value: undefined });
    await expect(run.result).rejects.toBeInstanceOf(RunError);
  });
});
