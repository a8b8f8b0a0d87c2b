/**
 * Stopping a streaming run: a reader that stops early (any view) or the caller's signal aborts
 * the run at once — the model sees its signal abort — and the RunError keeps the evidence.
 */
import { Agent, CancelledError, RunError, defineTool, errorChain, type RunStream } from 'golem';
import { StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { StreamAbandonedError } from '../../../support/internal-errors';

/** Resolves with the signal's reason once it aborts. */
function aborted(signal: AbortSignal | undefined): Promise<unknown> {
  return new Promise((resolve) => {
    if (signal === undefined) return;
    if (signal.aborted) resolve(signal.reason);
    else
      signal.addEventListener(
        'abort',
        () => {
          resolve(signal.reason);
        },
        { once: true },
      );
  });
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the promise to reject');
    },
    (error: unknown) => error,
  );
}

/** A model that streams `one`, then waits until its signal aborts and fails with the reason. */
function waitingModel(seen: { reason?: unknown }): StreamFunctionModel {
  return new StreamFunctionModel(async (_request, emit, options) => {
    await emit({ content: 'one' });
    seen.reason = await aborted(options.signal);
    throw seen.reason;
  });
}

type ViewName = 'deltas' | 'events' | 'textStream';

/** Reads `view` until its first text, then breaks. */
async function breakOnText(stream: RunStream<string>, view: ViewName): Promise<void> {
  if (view === 'deltas') {
    for await (const delta of stream) if (delta.content !== undefined) break;
  } else if (view === 'events') {
    for await (const event of stream.events) if (event.type === 'text-delta') break;
  } else {
    for await (const text of stream.textStream) if (text !== '') break;
  }
}

describe('stopping a streaming run', () => {
  test.each<ViewName>(['deltas', 'events', 'textStream'])(
    'break in %s aborts the run at once: the model sees StreamAbandonedError; evidence kept',
    async (view) => {
      const seen: { reason?: unknown } = {};
      const stream = new Agent({ model: waitingModel(seen) }).runStream('go');

      await breakOnText(stream, view);
      const error = await rejection(stream.result);

      expect(StreamAbandonedError.is(seen.reason)).toBe(true);
      expect(RunError.is(error) && error.stage).toBe('model');
      expect(StreamAbandonedError.is((error as RunError).cause)).toBe(true);
      expect((error as RunError).partial?.interrupted?.content).toBe('one');
    },
  );

  test('leaving partialOutput early aborts the run at once too', async () => {
    const seen: { reason?: unknown } = {};
    const stream = new Agent({ model: waitingModel(seen) }).runStream('go');

    for await (const partial of stream.partialOutput) if (partial === 'one') break;
    const error = await rejection(stream.result);

    expect(StreamAbandonedError.is(seen.reason)).toBe(true);
    expect(RunError.is(error) && StreamAbandonedError.is(error.cause)).toBe(true);
  });

  test("the events iterator's return() while a read is pending ends that read and the run", async () => {
    const seen: { reason?: unknown } = {};
    const stream = new Agent({ model: waitingModel(seen) }).runStream('go');
    const reader = stream.events[Symbol.asyncIterator]();
    expect((await reader.next()).value).toMatchObject({ type: 'turn-start' });
    expect((await reader.next()).value).toMatchObject({ type: 'text-delta', text: 'one' });

    const pending = reader.next();
    await reader.return?.();

    expect(await pending).toEqual({ value: undefined, done: true });
    expect(RunError.is(await rejection(stream.result))).toBe(true);
    expect(StreamAbandonedError.is(seen.reason)).toBe(true);
  });

  test('stopping while a tool runs aborts the tool; the RunError keeps the finished turn', async () => {
    let toolSaw: unknown;
    const slow = defineTool({
      name: 'slow',
      schema: { type: 'object', properties: {} },
      execute: async (_args, ctx) => {
        toolSaw = await aborted(ctx.signal);
        throw toolSaw;
      },
    });
    const model = new StreamFunctionModel(async (_request, emit) => {
      await emit({ toolCalls: [{ index: 0, id: 's1', name: 'slow' }] });
      return toolCallResponse([{ id: 's1', name: 'slow' }]);
    });
    const stream = new Agent({ model, tools: [slow] }).runStream('go');

    for await (const event of stream.events) if (event.type === 'turn-end') break;
    const error = await rejection(stream.result);

    expect(StreamAbandonedError.is(toolSaw)).toBe(true);
    expect(RunError.is(error)).toBe(true);
    expect([...errorChain(error)].some((e) => StreamAbandonedError.is(e))).toBe(true);
    expect((error as RunError).partial?.messages.at(-1)?.toolCalls?.[0]?.id).toBe('s1');
    expect(model.calls).toBe(1);
  });

  test("the caller's signal aborts the run: the events end with the error, evidence kept", async () => {
    const controller = new AbortController();
    const seen: { reason?: unknown } = {};
    const stream = new Agent({ model: waitingModel(seen) }).runStream('go', {
      signal: controller.signal,
    });

    const types: string[] = [];
    for await (const event of stream.events) {
      types.push(event.type);
      if (event.type === 'text-delta') controller.abort(new Error('user left'));
      if (event.type === 'error') {
        expect(event.error.stage).toBe('model');
        expect(CancelledError.is(event.error.cause)).toBe(true);
        expect(event.error.partial?.interrupted?.content).toBe('one');
      }
    }

    expect(types).toEqual(['turn-start', 'text-delta', 'error']);
    expect((seen.reason as Error).message).toBe('user left');
    expect(RunError.is(await rejection(stream.result))).toBe(true);
  });

  test('a caller signal aborted before the start fails the run without calling the model', async () => {
    const model = new StreamFunctionModel(() => textResponse('never'));
    const stream = new Agent({ model }).runStream('go', { signal: AbortSignal.abort() });

    const events = await (async () => {
      const seen = [];
      for await (const event of stream.events) seen.push(event);
      return seen;
    })();

    expect(events.map((e) => e.type)).toEqual(['error']);
    expect(model.calls).toBe(0);
  });

  test('breaking after the finish event changes nothing', async () => {
    const model = new StreamFunctionModel(() => textResponse('done'));
    const stream = new Agent({ model }).runStream('go');

    for await (const event of stream.events) if (event.type === 'finish') break;

    expect((await stream.result).output).toBe('done');
  });
});
