import {
  Agent,
  CancelledError,
  DeadlineExceededError,
  ModelHTTPError,
  ModelRetry,
  RunError,
  defaultBackoff,
  defineTool,
  errorChain,
  isCancellation,
  isRetryable,
  type RunEvent,
  type Sleep,
} from 'golem';
import { cancellationError } from '../../../../src/core/errors/cancellation';
import { FunctionModel, ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { AttemptsExhaustedError } from '../../../support/internal-errors';
import { brief, eventOf } from '../../../support/run-events';

function http(
  status: number,
  extra: { retryAfter?: number; retryable?: boolean } = {},
): ModelHTTPError {
  return new ModelHTTPError({ status, provider: 'openai', message: `status ${status}`, ...extra });
}

/** An injected sleep that resolves at once and records its calls. */
function instantSleep() {
  return jest.fn<Promise<void>, Parameters<Sleep>>(() => Promise.resolve());
}

/** An injected sleep that never resolves; it rejects with the cancellation error once the signal aborts. */
function sleepUntilAborted() {
  return jest.fn<Promise<void>, Parameters<Sleep>>(
    (_ms, signal) =>
      new Promise<void>((_resolve, reject) => {
        if (signal.aborted) {
          reject(cancellationError(signal));
          return;
        }
        signal.addEventListener('abort', () => {
          reject(cancellationError(signal));
        });
      }),
  );
}

async function runError(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the run to fail with a RunError');
}

describe('§11.1 retry classification', () => {
  test.each<{ name: string; error: unknown; expected: boolean }>([
    { name: 'retryable HTTP error', error: http(503), expected: true },
    { name: 'non-retryable HTTP error', error: http(400), expected: false },
    {
      name: 'wrapped retryable',
      error: new Error('call failed', { cause: http(429) }),
      expected: true,
    },
    {
      name: 'wrapped non-retryable',
      error: new Error('call failed', { cause: http(401) }),
      expected: false,
    },
    { name: 'plain error', error: new Error('boom'), expected: false },
    { name: 'cancelled', error: new CancelledError(), expected: false },
    { name: 'deadline', error: new DeadlineExceededError(), expected: false },
    { name: 'DOM AbortError', error: new DOMException('aborted', 'AbortError'), expected: false },
    {
      name: 'aggregate of a cancellation and a retryable error',
      error: new AggregateError([new CancelledError(), http(503)]),
      expected: false,
    },
    {
      name: 'aggregate of a retryable error and a deadline',
      error: new AggregateError([http(503), new DeadlineExceededError()]),
      expected: false,
    },
    {
      name: 'retryable error caused by a cancellation',
      error: new ModelHTTPError({ status: 503, provider: 'openai', cause: new CancelledError() }),
      expected: false,
    },
    { name: 'null', error: null, expected: false },
    { name: 'undefined', error: undefined, expected: false },
    { name: 'ModelRetry', error: new ModelRetry('fix it'), expected: false },
    {
      name: 'ModelRetry whose reason is retryable',
      error: new ModelRetry('fix it', { cause: http(503) }),
      expected: false,
    },
    { name: 'explicit retryable override', error: http(400, { retryable: true }), expected: true },
    {
      name: 'first classified error in the chain decides',
      error: new Error('outer', {
        cause: Object.assign(new Error('mid', { cause: http(503) }), { retryable: false }),
      }),
      expected: false,
    },
  ])('RT-1 isRetryable: $name → $expected', ({ error, expected }) => {
    expect(isRetryable(error)).toBe(expected);
  });

  test('RT-1 the aggregate of a cancellation and a retryable error is a cancellation', () => {
    expect(isCancellation(new AggregateError([http(503), new CancelledError()]))).toBe(true);
  });

  test.each([
    [400, false],
    [401, false],
    [404, false],
    [408, true],
    [429, true],
    [500, true],
    [502, true],
    [503, true],
  ])('RT-1 ModelHTTPError with status %p is retryable: %p', (status, retryable) => {
    const error = http(status);
    expect(error.retryable).toBe(retryable);
    expect(isRetryable(error)).toBe(retryable);
    expect(ModelHTTPError.is(error)).toBe(true);
    expect(error.status).toBe(status);
  });
});

describe('§11.2 retry loop', () => {
  test('RT-2 one 429 then success with maxAttempts 2 and zero backoff: 2 calls, output recovered, the failure left no evidence', async () => {
    const model = new ScriptedModel([
      http(429),
      textResponse('recovered', { inputTokens: 4, outputTokens: 2 }),
    ]);
    const agent = new Agent({
      model,
      maxAttempts: 2,
      retryBackoff: () => 0,
      sleep: instantSleep(),
    });

    const result = await agent.run('Hi');

    expect(result.output).toBe('recovered');
    expect(model.calls).toBe(2);
    expect(result.requests).toBe(2);
    expect(result.messages).toEqual([
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'recovered' },
    ]);
    expect(result.usage).toEqual({ inputTokens: 4, outputTokens: 2 });
  });

  test('RT-3 a non-retryable failure with maxAttempts 3: 1 call, model stage, cause preserved unwrapped', async () => {
    const denied = http(400);
    const model = new ScriptedModel([denied, textResponse('unused')]);
    const sleep = instantSleep();
    const agent = new Agent({ model, maxAttempts: 3, retryBackoff: () => 0, sleep });

    const error = await runError(agent.run('Hi'));

    expect(error.stage).toBe('model');
    expect(error.cause).toBe(denied);
    expect(error.message).not.toContain('after');
    expect(model.calls).toBe(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  test('RT-4 always 503 with maxAttempts 2: model stage, "after 2 attempts", 2 calls, last error reachable', async () => {
    const last = http(503);
    const model = new ScriptedModel([http(503), last, textResponse('unused')]);
    const agent = new Agent({
      model,
      maxAttempts: 2,
      retryBackoff: () => 0,
      sleep: instantSleep(),
    });

    const error = await runError(agent.run('Hi'));

    expect(error.stage).toBe('model');
    expect(error.message).toBe(
      'golem: model stage: model failed after 2 attempts: openai: HTTP 503: status 503',
    );
    const exhausted = error.cause as AttemptsExhaustedError;
    expect(AttemptsExhaustedError.is(exhausted)).toBe(true);
    expect(exhausted).toMatchObject({ budget: 'model', attempts: 2 });
    expect(exhausted.cause).toBe(last);
    expect(model.calls).toBe(2);
  });

  test('RT-5 maxAttempts 3, always retryable: backoff is asked for attempts [1, 2] and its waits are slept', async () => {
    const model = new ScriptedModel([http(503), http(503), http(503), textResponse('unused')]);
    const backoff = jest.fn((attempt: number) => attempt * 100);
    const sleep = instantSleep();
    const agent = new Agent({ model, maxAttempts: 3, retryBackoff: backoff, sleep });

    const error = await runError(agent.run('Hi'));

    expect(backoff.mock.calls.map(([attempt]) => attempt)).toEqual([1, 2]);
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([100, 200]);
    expect(error.message).toContain('after 3 attempts');
    expect(model.calls).toBe(3);
  });

  test('RT-5 retryAfter is honoured: backoff 0 and an error asking for 1500 ms sleeps 1500', async () => {
    const model = new ScriptedModel([http(429, { retryAfter: 1500 }), textResponse('ok')]);
    const sleep = instantSleep();
    const agent = new Agent({ model, maxAttempts: 2, retryBackoff: () => 0, sleep });

    const result = await agent.run('Hi');

    expect(result.output).toBe('ok');
    expect(sleep).toHaveBeenCalledTimes(1);
    expect(sleep.mock.calls[0]?.[0]).toBe(1500);
  });

  test('RT-5 without a custom backoff the default table is used (500 ms, then 1000 ms)', async () => {
    const model = new ScriptedModel([http(503), http(503), textResponse('ok')]);
    const sleep = instantSleep();
    const agent = new Agent({ model, maxAttempts: 3, sleep });

    await agent.run('Hi');

    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([500, 1000]);
  });

  test('RT-6 a model that cancels the signal then fails retryably, backoff 1 h: 1 call, cancellation, no attempt count', async () => {
    const controller = new AbortController();
    const model = new FunctionModel(() => {
      controller.abort();
      throw http(503);
    });
    const sleep = sleepUntilAborted();
    const agent = new Agent({ model, maxAttempts: 3, retryBackoff: () => 3_600_000, sleep });

    const error = await runError(agent.run('Hi', { signal: controller.signal }));

    expect(error.stage).toBe('model');
    expect(isCancellation(error)).toBe(true);
    expect(CancelledError.is(error.cause)).toBe(true);
    expect(error.message).not.toContain('after');
    expect([...errorChain(error)].some((e) => ModelHTTPError.is(e))).toBe(false);
    expect(model.calls).toBe(1);
  });

  test('RT-6 cancelling during the backoff wait ends the run at once with the cancellation, after 1 call', async () => {
    const controller = new AbortController();
    const model = new ScriptedModel([http(503), textResponse('unused')]);
    const sleep = sleepUntilAborted();
    sleep.mockImplementationOnce((_ms, signal) => {
      const waiting = new Promise<void>((_resolve, reject) => {
        signal.addEventListener('abort', () => {
          reject(cancellationError(signal));
        });
      });
      controller.abort();
      return waiting;
    });
    const agent = new Agent({ model, maxAttempts: 3, retryBackoff: () => 3_600_000, sleep });

    const error = await runError(agent.run('Hi', { signal: controller.signal }));

    expect(error.stage).toBe('model');
    expect(isCancellation(error)).toBe(true);
    expect(sleep).toHaveBeenCalledTimes(1);
    expect(sleep.mock.calls[0]?.[0]).toBe(3_600_000);
    expect(model.calls).toBe(1);
  });

  test('RT-7 a retry inside a tool loop: failed attempt, tool turn, final → 3 model calls, 4 evidence messages', async () => {
    const tool = defineTool({
      name: 'echo',
      description: 'Echo',
      schema: { type: 'object' },
      execute: () => 'echoed',
    });
    const model = new ScriptedModel([
      http(503),
      toolCallResponse([{ id: 'call-1', name: 'echo' }]),
      textResponse('done'),
    ]);
    const agent = new Agent({
      model,
      tools: [tool],
      maxAttempts: 2,
      retryBackoff: () => 0,
      sleep: instantSleep(),
    });

    const result = await agent.run('Hi');

    expect(result.output).toBe('done');
    expect(model.calls).toBe(3);
    expect(result.requests).toBe(3);
    expect(result.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  test('RT-7 events per attempt: a failed attempt and its retry each emit model_start/model_end on turn 0', async () => {
    const sentinel = http(429);
    const model = new ScriptedModel([
      sentinel,
      textResponse('ok', { inputTokens: 2, outputTokens: 1 }),
    ]);
    const events: RunEvent[] = [];
    const agent = new Agent({
      model,
      maxAttempts: 2,
      retryBackoff: () => 0,
      sleep: instantSleep(),
      onEvent: (e) => events.push(e),
    });

    await agent.run('Hi');

    expect(events.map(brief)).toEqual([
      'model_start t0 a1',
      'model_end t0 a1',
      'model_start t0 a2',
      'model_end t0 a2',
    ]);
    expect(eventOf(events[1], 'model_end').error).toBe(sentinel);
    expect(eventOf(events[3], 'model_end').error).toBeUndefined();
    expect(eventOf(events[3], 'model_end').usage).toEqual({ inputTokens: 2, outputTokens: 1 });
  });

  test.each([
    [1, 500],
    [2, 1000],
    [3, 2000],
    [6, 16000],
    [7, 30000],
    [8, 30000],
    [60, 30000],
    [0, 500],
    [-3, 500],
  ])('RT-8 default backoff after attempt %p waits %p ms', (attempt, ms) => {
    expect(defaultBackoff(attempt)).toBe(ms);
  });
});
