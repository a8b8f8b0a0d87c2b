import {
  Agent,
  CancelledError,
  FallbackModel,
  ModelHTTPError,
  RunError,
  isCancellation,
  isRetryable,
  type Delta,
  type Model,
  type ModelRequest,
  type RunEvent,
  ConfigError,
} from 'golem';
import { FunctionModel, ScriptedModel, StreamFunctionModel, textResponse } from 'golem/testing';
import { FallbackExhaustedError } from '../../../support/internal-errors';
import { brief, eventOf } from '../../../support/run-events';

function http(status: number, provider = 'primary'): ModelHTTPError {
  return new ModelHTTPError({ status, provider, message: `status ${status}` });
}

function request(prompt = 'hi'): ModelRequest {
  return { messages: [{ role: 'user', content: prompt }], tools: [] };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('§11.3 FallbackModel.generate', () => {
  test('FB-1 a retryable primary failure falls back to the backup, which answers; each is called once', async () => {
    const primary = new ScriptedModel([http(503)], { name: 'primary' });
    const backup = new ScriptedModel([textResponse('from backup')], { name: 'backup' });
    const model = new FallbackModel([primary, backup]);

    const response = await model.generate(request('question'));

    expect(response.message.content).toBe('from backup');
    expect(primary.calls).toBe(1);
    expect(backup.calls).toBe(1);
    expect(backup.requests[0]).toEqual(request('question'));
  });

  test('FB-2 a successful primary answers and the backup is never called', async () => {
    const primary = new ScriptedModel([textResponse('from primary')]);
    const backup = new ScriptedModel([textResponse('from backup')]);
    const model = new FallbackModel([primary, backup]);

    const response = await model.generate(request());

    expect(response.message.content).toBe('from primary');
    expect(backup.calls).toBe(0);
  });

  test('FB-3 a non-retryable primary failure is returned unchanged and the backup is not called', async () => {
    const denied = http(400);
    const primary = new ScriptedModel([denied]);
    const backup = new ScriptedModel([textResponse('from backup')]);
    const model = new FallbackModel([primary, backup]);

    expect(await rejection(model.generate(request()))).toBe(denied);
    expect(backup.calls).toBe(0);
  });

  test('FB-4 when every member fails retryably, FallbackExhaustedError carries the last message, classification, cause and every error in order', async () => {
    const first = http(503, 'a');
    const second = http(429, 'b');
    const last = http(500, 'c');
    const model = new FallbackModel([
      new ScriptedModel([first]),
      new ScriptedModel([second]),
      new ScriptedModel([last]),
    ]);

    const error = await rejection(model.generate(request()));

    expect(FallbackExhaustedError.is(error)).toBe(true);
    const exhausted = error as FallbackExhaustedError;
    expect(exhausted.message).toBe(last.message);
    expect(exhausted.message).toBe('c: HTTP 500: status 500');
    expect(exhausted.retryable).toBe(true);
    expect(isRetryable(exhausted)).toBe(true);
    expect(exhausted.errors).toEqual([first, second, last]);
    expect(exhausted.errors[0]).toBe(first);
    expect(exhausted.errors[2]).toBe(last);
    expect(exhausted.cause).toBe(last);
  });

  test('FB-4 every member failed, the last non-retryably: FallbackExhaustedError whose retryable is false (non-retryable stays so)', async () => {
    const first = http(503, 'a');
    const last = http(400, 'b');
    const model = new FallbackModel([new ScriptedModel([first]), new ScriptedModel([last])]);

    const error = await rejection(model.generate(request()));

    expect(FallbackExhaustedError.is(error)).toBe(true);
    const exhausted = error as FallbackExhaustedError;
    expect(exhausted.message).toBe(last.message);
    expect(exhausted.retryable).toBe(false);
    expect(isRetryable(exhausted)).toBe(false);
    expect(exhausted.errors).toEqual([first, last]);
    expect(exhausted.cause).toBe(last);
  });

  test('FB-4 with a policy that always falls back, an exhausted chain ending non-retryably is FallbackExhaustedError with retryable false', async () => {
    const first = http(503, 'a');
    const last = http(400, 'b');
    const model = new FallbackModel([new ScriptedModel([first]), new ScriptedModel([last])], {
      shouldFallback: () => true,
    });

    const error = await rejection(model.generate(request()));

    expect(FallbackExhaustedError.is(error)).toBe(true);
    expect((error as FallbackExhaustedError).retryable).toBe(false);
    expect((error as FallbackExhaustedError).message).toBe('b: HTTP 400: status 400');
    expect((error as FallbackExhaustedError).errors).toEqual([first, last]);
    expect((error as FallbackExhaustedError).cause).toBe(last);
  });

  test('FB-5 a signal cancelled during the primary failure returns the cancellation and skips the backup', async () => {
    const controller = new AbortController();
    const primary = new FunctionModel(() => {
      controller.abort();
      throw http(503);
    });
    const backup = new ScriptedModel([textResponse('from backup')]);
    const model = new FallbackModel([primary, backup]);

    const error = await rejection(model.generate(request(), { signal: controller.signal }));

    expect(CancelledError.is(error)).toBe(true);
    expect(isCancellation(error)).toBe(true);
    expect(primary.calls).toBe(1);
    expect(backup.calls).toBe(0);
  });

  test.each<{ name: string; members: () => unknown }>([
    { name: 'a null primary', members: () => [null, new ScriptedModel()] },
    { name: 'a null alternate', members: () => [new ScriptedModel(), null] },
    { name: 'zero alternates', members: () => [new ScriptedModel()] },
    { name: 'no members', members: () => [] },
    { name: 'a member without generate', members: () => [new ScriptedModel(), {}] },
  ])('FB-6 construction with $name throws fallback ConfigError', ({ members }) => {
    let caught: unknown;
    try {
      new FallbackModel(members() as Model[]);
    } catch (error) {
      caught = error;
    }
    expect(ConfigError.is(caught, 'fallback')).toBe(true);
  });

  test('FB custom shouldFallback: a non-retryable failure it accepts falls back, and it sees the failure', async () => {
    const denied = http(400);
    const shouldFallback = jest.fn(() => true);
    const backup = new ScriptedModel([textResponse('from backup')]);
    const model = new FallbackModel([new ScriptedModel([denied]), backup], { shouldFallback });

    const response = await model.generate(request());

    expect(response.message.content).toBe('from backup');
    expect(shouldFallback).toHaveBeenCalledTimes(1);
    expect(shouldFallback).toHaveBeenCalledWith(denied);
  });

  test('FB custom shouldFallback: a retryable failure it refuses is returned unchanged without trying the backup', async () => {
    const overloaded = http(503);
    const backup = new ScriptedModel([textResponse('from backup')]);
    const model = new FallbackModel([new ScriptedModel([overloaded]), backup], {
      shouldFallback: () => false,
    });

    expect(await rejection(model.generate(request()))).toBe(overloaded);
    expect(backup.calls).toBe(0);
  });
});

describe('§11.3 FallbackModel.stream', () => {
  test('FB-7 a primary failing before any fragment falls back; the backup stream is forwarded exactly once', async () => {
    const primary = new StreamFunctionModel(() => {
      throw http(503);
    });
    const backup = new ScriptedModel([textResponse('from backup')]);
    const model = new FallbackModel([primary, backup]);
    const deltas: Delta[] = [];

    const response = await model.stream(request(), (d) => {
      deltas.push(d);
    });

    expect(response.message.content).toBe('from backup');
    expect(deltas).toEqual([{ content: 'from backup' }]);
    expect(primary.calls).toBe(1);
    expect(backup.calls).toBe(1);
  });

  test('FB-7 a primary failing after one fragment returns its own error; the backup is untouched', async () => {
    const broken = http(503);
    const primary = new StreamFunctionModel(async (_request, emit) => {
      await emit({ content: 'partial' });
      throw broken;
    });
    const backup = new ScriptedModel([textResponse('from backup')]);
    const model = new FallbackModel([primary, backup]);
    const deltas: Delta[] = [];

    const error = await rejection(
      model.stream(request(), (d) => {
        deltas.push(d);
      }),
    );

    expect(error).toBe(broken);
    expect(deltas).toEqual([{ content: 'partial' }]);
    expect(backup.calls).toBe(0);
  });

  test('FB-7 a handler error on the first fragment is returned as-is; the backup is untouched', async () => {
    const handlerError = new Error('consumer gone');
    const primary = new ScriptedModel([textResponse('from primary')]);
    const backup = new ScriptedModel([textResponse('from backup')]);
    const model = new FallbackModel([primary, backup]);

    const error = await rejection(
      model.stream(request(), () => {
        throw handlerError;
      }),
    );

    expect(error).toBe(handlerError);
    expect(backup.calls).toBe(0);
  });

  test('FB-7 a non-streaming member is a configuration error on the first streaming call, before any member runs', async () => {
    const primary = new ScriptedModel([textResponse('from primary')]);
    const plain = new FunctionModel(() => textResponse('plain'));
    const model = new FallbackModel([primary, plain]);

    const error = await rejection(model.stream(request(), () => undefined));

    expect(ConfigError.is(error, 'fallback')).toBe(true);
    expect(primary.calls).toBe(0);
    expect(plain.calls).toBe(0);
  });

  test('FB-7 every streaming member failing before a fragment gives FallbackExhaustedError with every error', async () => {
    const first = http(503, 'a');
    const last = http(502, 'b');
    const model = new FallbackModel([new ScriptedModel([first]), new ScriptedModel([last])]);

    const error = await rejection(model.stream(request(), () => undefined));

    expect(FallbackExhaustedError.is(error)).toBe(true);
    expect((error as FallbackExhaustedError).errors).toEqual([first, last]);
    expect((error as FallbackExhaustedError).message).toBe(last.message);
  });
});

describe('§11.3 FallbackModel inside an agent', () => {
  test('FB the agent emits one model_start/model_end pair per fallback call, not per member', async () => {
    const primary = new ScriptedModel([http(503)]);
    const backup = new ScriptedModel([
      textResponse('from backup', { inputTokens: 2, outputTokens: 1 }),
    ]);
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: new FallbackModel([primary, backup]),
      onEvent: (e) => events.push(e),
    });

    const result = await agent.run('Hi');

    expect(result.output).toBe('from backup');
    expect(result.requests).toBe(1);
    // One pair per call; the move to the next member is its own `fallback` event inside it.
    expect(events.map(brief)).toEqual(['model_start t0 a1', 'fallback t0 a1', 'model_end t0 a1']);
    expect(events[1]).toMatchObject({ model: 'scripted', nextModel: 'scripted' });
    const end = eventOf(events[2], 'model_end');
    expect(end.error).toBeUndefined();
    expect(end.usage).toEqual({ inputTokens: 2, outputTokens: 1 });
  });

  test('FB a retryable exhausted chain is retried by the agent from the primary', async () => {
    const primary = new ScriptedModel([http(503, 'a'), textResponse('primary again')]);
    const backup = new ScriptedModel([http(503, 'b')]);
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: new FallbackModel([primary, backup]),
      maxAttempts: 2,
      retryBackoff: () => 0,
      sleep: () => Promise.resolve(),
      onEvent: (e) => events.push(e),
    });

    const result = await agent.run('Hi');

    expect(result.output).toBe('primary again');
    expect(primary.calls).toBe(2);
    expect(backup.calls).toBe(1);
    expect(events.map(brief)).toEqual([
      'model_start t0 a1',
      'fallback t0 a1',
      'model_end t0 a1',
      'model_start t0 a2',
      'model_end t0 a2',
    ]);
    expect(FallbackExhaustedError.is(eventOf(events[2], 'model_end').error)).toBe(true);
  });

  test('FB a streaming agent run over a fallback chain forwards only the answering member fragments with one event pair', async () => {
    const primary = new StreamFunctionModel(() => {
      throw http(503);
    });
    const backup = new ScriptedModel([textResponse('streamed backup')]);
    const events: RunEvent[] = [];
    const agent = new Agent({
      model: new FallbackModel([primary, backup]),
      onEvent: (e) => events.push(e),
    });

    const stream = agent.runStream('Hi');
    const deltas: Delta[] = [];
    for await (const delta of stream) deltas.push(delta);
    const result = await stream.result;

    expect(result.output).toBe('streamed backup');
    expect(deltas).toEqual([{ content: 'streamed backup' }]);
    expect(events.map((e) => e.kind)).toEqual(['model_start', 'fallback', 'model_end']);
  });

  test('FB a non-retryable primary failure fails the agent run at the model stage with that error', async () => {
    const denied = http(401);
    const backup = new ScriptedModel([textResponse('from backup')]);
    const agent = new Agent({ model: new FallbackModel([new ScriptedModel([denied]), backup]) });

    const error = await rejection(agent.run('Hi'));

    expect(RunError.is(error)).toBe(true);
    expect((error as RunError).stage).toBe('model');
    expect((error as RunError).cause).toBe(denied);
    expect(backup.calls).toBe(0);
  });
});
