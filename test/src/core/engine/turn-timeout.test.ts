/**
 * The per-turn deadline (issue 12): `turnTimeout` bounds each model call, its whole stream
 * included; expiry is the retryable TurnTimeoutError (so `maxAttempts` retries it), the run
 * deadline still bounds everything, and no timer or listener outlives the call. Fake timers and
 * models that wait on their signal — no real waiting.
 */
import { getEventListeners } from 'node:events';
import {
  Agent,
  ConfigError,
  RunError,
  RunInputError,
  isCancellation,
  isDeadlineExceeded,
  isRetryable,
  type ModelResponse,
  type RunEvent,
  type Sleep,
} from 'golem';
import { MAX_TIMEOUT_MS } from '../../../../src/core/kit/timeouts';
import { cancellationError } from '../../../../src/core/errors/cancellation';
import { FunctionModel, StreamFunctionModel, ScriptedModel, textResponse } from 'golem/testing';
import { AttemptsExhaustedError, TurnTimeoutError } from '../../../support/internal-errors';

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
});
afterEach(() => {
  jest.useRealTimers();
});

/** Never settles on its own; rejects with the cancellation error once `signal` aborts. */
function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    signal?.addEventListener('abort', () => {
      reject(cancellationError(signal));
    });
  });
}

/** Resolves after `ms` of (fake) time, ignoring any signal. */
function after<T>(ms: number, value: T): Promise<T> {
  return new Promise((resolve) => {
    setTimeout(() => {
      resolve(value);
    }, ms);
  });
}

const instantSleep = () => jest.fn<Promise<void>, Parameters<Sleep>>(() => Promise.resolve());

/** Settles `promise` into a value, so a rejection is inspected rather than thrown. */
function settle(promise: Promise<unknown>): { done: () => boolean; outcome: Promise<unknown> } {
  let done = false;
  const outcome = promise.then(
    (value: unknown) => {
      done = true;
      return value;
    },
    (error: unknown) => {
      done = true;
      return error;
    },
  );
  return { done: () => done, outcome };
}

test('a call outliving turnTimeout fails the turn with TurnTimeoutError at the deadline, not before', async () => {
  const model = new FunctionModel((_r, { signal }) => untilAborted(signal), { name: 'slow' });
  const agent = new Agent({ model, turnTimeout: 1_000 });

  const run = settle(agent.run('Hi'));
  await jest.advanceTimersByTimeAsync(999);
  expect(run.done()).toBe(false);
  await jest.advanceTimersByTimeAsync(1);
  const error = (await run.outcome) as RunError;

  expect(RunError.is(error) && error.stage).toBe('model');
  const timeout = error.cause as TurnTimeoutError;
  expect(TurnTimeoutError.is(timeout)).toBe(true);
  expect(timeout).toMatchObject({ timeout: 1_000, turn: 0, attempt: 1, retryable: true });
  expect(timeout.message).toBe(
    'model "slow" did not finish turn 0 (attempt 1) within its turnTimeout of 1000 ms; raise turnTimeout, or ask for less output (maxTokens)',
  );
  expect(isRetryable(timeout)).toBe(true);
  expect(isCancellation(error)).toBe(false);
  expect(isDeadlineExceeded(error)).toBe(false);
  expect(jest.getTimerCount()).toBe(0);
});

test('maxAttempts retries a timed-out call with a fresh deadline; the failed attempt reports the timeout', async () => {
  let calls = 0;
  const model = new FunctionModel((_r, { signal }) =>
    ++calls === 1 ? untilAborted(signal) : after(900, textResponse('ok')),
  );
  const events: RunEvent[] = [];
  const sleep = instantSleep();
  const agent = new Agent({
    model,
    turnTimeout: 1_000,
    maxAttempts: 2,
    sleep,
    onEvent: (e) => events.push(e),
  });

  const run = settle(agent.run('Hi'));
  await jest.advanceTimersByTimeAsync(1_900);

  expect(await run.outcome).toMatchObject({ output: 'ok', requests: 2 });
  expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([500]);
  const ends = events.filter((e) => e.kind === 'model_end');
  expect(TurnTimeoutError.is(ends[0]?.error)).toBe(true);
  expect(ends[1]?.error).toBeUndefined();
  expect(jest.getTimerCount()).toBe(0);
});

test('every attempt timing out exhausts the attempts: AttemptsExhaustedError whose cause is the last timeout', async () => {
  const model = new FunctionModel((_r, { signal }) => untilAborted(signal));
  const agent = new Agent({ model, turnTimeout: 100, maxAttempts: 3, sleep: instantSleep() });

  const run = settle(agent.run('Hi'));
  await jest.advanceTimersByTimeAsync(300);
  const error = (await run.outcome) as RunError;

  const exhausted = error.cause as AttemptsExhaustedError;
  expect(AttemptsExhaustedError.is(exhausted)).toBe(true);
  expect(exhausted.attempts).toBe(3);
  expect(exhausted.cause).toMatchObject({ kind: 'TurnTimeoutError', attempt: 3 });
  expect(model.calls).toBe(3);
});

test('a model that ignores its signal and answers late still timed out (its answer is discarded)', async () => {
  const model = new FunctionModel(() => after(1_500, textResponse('late')));
  const agent = new Agent({ model, turnTimeout: 1_000 });

  const run = settle(agent.run('Hi'));
  await jest.advanceTimersByTimeAsync(1_500);

  expect(((await run.outcome) as RunError).cause).toMatchObject({ kind: 'TurnTimeoutError' });
});

describe('streams', () => {
  test('a stream that ignores its signal and completes late timed out; the text it delivered is kept', async () => {
    const model = new StreamFunctionModel(async (_r, emit) => {
      await emit({ content: 'abc' });
      return after(1_500, textResponse('abc'));
    });
    const run = settle(new Agent({ model, turnTimeout: 1_000 }).runStream('Hi').result);
    await jest.advanceTimersByTimeAsync(1_500);
    const error = (await run.outcome) as RunError;

    expect(TurnTimeoutError.is(error.cause)).toBe(true);
    expect(error.partial?.interrupted).toEqual({ role: 'assistant', content: 'abc' });
  });

  test('the deadline covers the whole stream: steady fragments do not extend it; delivered text is kept', async () => {
    const model = new StreamFunctionModel(async (_r, emit, { signal }) => {
      for (;;) {
        await emit({ content: 'x' });
        await Promise.race([after(400, undefined), untilAborted(signal)]);
      }
    });
    const agent = new Agent({ model, turnTimeout: 1_000 });

    const stream = agent.runStream('Hi');
    const run = settle(stream.result);
    await jest.advanceTimersByTimeAsync(1_000);
    const error = (await run.outcome) as RunError;

    expect(RunError.is(error) && error.stage).toBe('model');
    expect(TurnTimeoutError.is(error.cause)).toBe(true);
    expect(error.partial?.interrupted).toEqual({ role: 'assistant', content: 'xxx' });
    await jest.advanceTimersByTimeAsync(400);
    expect(jest.getTimerCount()).toBe(0);
  });
});

test('the run deadline still bounds everything: it wins over a longer turn deadline and is a cancellation', async () => {
  const model = new FunctionModel((_r, { signal }) => untilAborted(signal));
  const agent = new Agent({ model, turnTimeout: 1_000, runTimeout: 300, maxAttempts: 3 });

  const run = settle(agent.run('Hi'));
  await jest.advanceTimersByTimeAsync(300);
  const error = (await run.outcome) as RunError;

  expect(isDeadlineExceeded(error)).toBe(true);
  expect(TurnTimeoutError.is(error.cause)).toBe(false);
  expect(model.calls).toBe(1);
  expect(jest.getTimerCount()).toBe(0);
});

test('a caller abort during the turn is reported as the cancellation, never as a turn timeout', async () => {
  const controller = new AbortController();
  const model = new FunctionModel((_r, { signal }) => untilAborted(signal));
  const agent = new Agent({ model, turnTimeout: 1_000, maxAttempts: 3 });

  const run = settle(agent.run('Hi', { signal: controller.signal }));
  await jest.advanceTimersByTimeAsync(10);
  controller.abort();
  const error = (await run.outcome) as RunError;

  expect(isCancellation(error)).toBe(true);
  expect(model.calls).toBe(1);
});

test('after a fast turn no timer and no listener on the caller signal remain', async () => {
  const controller = new AbortController();
  const model = new ScriptedModel([textResponse('ok')]);
  const agent = new Agent({ model, turnTimeout: 60_000 });

  await agent.run('Hi', { signal: controller.signal });

  expect(jest.getTimerCount()).toBe(0);
  expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
});

test('the model receives a signal that aborts at the turn deadline (reason: the TurnTimeoutError)', async () => {
  let seen: AbortSignal | undefined;
  const model = new FunctionModel((_r, { signal }) => {
    seen = signal;
    return untilAborted(signal);
  });
  const run = settle(new Agent({ model, turnTimeout: 50 }).run('Hi'));
  await jest.advanceTimersByTimeAsync(50);
  await run.outcome;

  expect(seen?.aborted).toBe(true);
  expect(TurnTimeoutError.is(seen?.reason)).toBe(true);
});

describe('per-run override', () => {
  test('a run’s turnTimeout applies when the agent has none', async () => {
    const model = new FunctionModel((_r, { signal }) => untilAborted(signal));
    const run = settle(new Agent({ model }).run('Hi', { turnTimeout: 200 }));
    await jest.advanceTimersByTimeAsync(200);
    expect(((await run.outcome) as RunError).cause).toMatchObject({ timeout: 200 });
  });

  test('a run’s turnTimeout 0 turns the agent’s off for that run', async () => {
    const model = new FunctionModel((): Promise<ModelResponse> => after(5_000, textResponse('ok')));
    const run = settle(new Agent({ model, turnTimeout: 1_000 }).run('Hi', { turnTimeout: 0 }));
    await jest.advanceTimersByTimeAsync(5_000);
    expect(await run.outcome).toMatchObject({ output: 'ok' });
  });
});

describe('validation', () => {
  const model = new ScriptedModel([textResponse('unused')]);

  test.each([-1, NaN, Infinity, MAX_TIMEOUT_MS + 1])('agent turnTimeout %p → ConfigError', (v) => {
    let error: unknown;
    try {
      new Agent({ model, turnTimeout: v });
    } catch (e) {
      error = e;
    }
    expect(ConfigError.is(error)).toBe(true);
    expect((error as Error).message).toContain('Agent `turnTimeout`');
  });

  test.each([-1, NaN, Infinity, MAX_TIMEOUT_MS + 1])(
    'run turnTimeout %p → RunInputError before any model call',
    async (v) => {
      const error = await new Agent({ model }).run('Hi', { turnTimeout: v }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(RunInputError.is(error)).toBe(true);
      expect((error as Error).message).toContain('turnTimeout');
      expect(model.calls).toBe(0);
    },
  );
});
