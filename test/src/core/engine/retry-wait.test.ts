/**
 * Retries that respect the provider (issue 12): the engine never retries sooner than a provider
 * asked; a wait longer than `maxRetryWait` ends the retries with RetryAfterTooLongError; backoff
 * waits are bounded; `timerSleep` never fires early on waits beyond one Node timer.
 */
import fc from 'fast-check';
import {
  Agent,
  ConfigError,
  ModelHTTPError,
  RunError,
  isCancellation,
  isRetryable,
  type Sleep,
} from 'golem';
import { DEFAULT_MAX_RETRY_WAIT_MS, timerSleep } from '../../../../src/core/engine/retry';
import { MAX_TIMEOUT_MS } from '../../../../src/core/kit/timeouts';
import { ScriptedModel, textResponse } from 'golem/testing';
import { planRetry } from '../../../../src/core/engine/retry';
import { AttemptsExhaustedError, RetryAfterTooLongError } from '../../../support/internal-errors';

function http(status: number, retryAfter?: number): ModelHTTPError {
  return new ModelHTTPError({ status, provider: 'p', message: `status ${status}`, retryAfter });
}

function recordingSleep() {
  return jest.fn<Promise<void>, Parameters<Sleep>>(() => Promise.resolve());
}

function thrown(build: () => unknown): unknown {
  try {
    build();
  } catch (error) {
    return error;
  }
  return undefined;
}

async function runError(promise: Promise<unknown>): Promise<RunError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!RunError.is(error)) throw new Error(`expected a RunError, got ${String(error)}`);
  return error;
}

describe('a provider asking for longer than maxRetryWait', () => {
  test('gives up with RetryAfterTooLongError (cause: the provider error) instead of retrying: 1 call, no wait', async () => {
    const asked = http(429, 120_000);
    const model = new ScriptedModel([asked, textResponse('unused')]);
    const sleep = recordingSleep();
    const agent = new Agent({ model, maxAttempts: 3, sleep });

    const error = await runError(agent.run('Hi'));

    expect(error.stage).toBe('model');
    const refused = error.cause as RetryAfterTooLongError;
    expect(RetryAfterTooLongError.is(refused)).toBe(true);
    expect(refused).toMatchObject({
      requested: 120_000,
      allowed: DEFAULT_MAX_RETRY_WAIT_MS,
      attempts: 1,
      retryAfter: 120_000,
      retryable: true,
    });
    expect(refused.cause).toBe(asked);
    expect(refused.message).toBe(
      'the provider asked to wait 120000 ms before retrying (after attempt 1), longer than maxRetryWait (60000 ms); giving up instead of retrying early — raise maxRetryWait or retry later: p: HTTP 429: status 429',
    );
    expect(isCancellation(error)).toBe(false);
    expect(model.calls).toBe(1);
    expect(sleep).not.toHaveBeenCalled();
  });

  test('after earlier retries, the refusal counts the attempts made', async () => {
    const model = new ScriptedModel([http(503, 1_000), http(429, 600_000), textResponse('x')]);
    const sleep = recordingSleep();
    const agent = new Agent({ model, maxAttempts: 5, retryBackoff: () => 0, sleep });

    const error = await runError(agent.run('Hi'));

    expect(error.cause).toMatchObject({ kind: 'RetryAfterTooLongError', attempts: 2 });
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([1_000]);
    expect(model.calls).toBe(2);
  });

  test('a larger maxRetryWait honours the same request: the wait is exactly what was asked', async () => {
    const model = new ScriptedModel([http(429, 120_000), textResponse('ok')]);
    const sleep = recordingSleep();
    const agent = new Agent({ model, maxAttempts: 2, maxRetryWait: 300_000, sleep });

    await expect(agent.run('Hi')).resolves.toMatchObject({ output: 'ok' });
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([120_000]);
  });

  test('maxRetryWait 0: any provider wait beyond the backoff is refused; a wait of 0 is not', async () => {
    const zero = new ScriptedModel([http(429, 0), textResponse('ok')]);
    const refusing = new ScriptedModel([http(429, 1), textResponse('unused')]);
    const sleep = recordingSleep();
    const options = { maxAttempts: 2, maxRetryWait: 0, retryBackoff: () => 0, sleep };

    await new Agent({ model: zero, ...options }).run('Hi');
    const error = await runError(new Agent({ model: refusing, ...options }).run('Hi'));

    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([0]);
    expect(error.cause).toMatchObject({ requested: 1, allowed: 0 });
  });

  test('a saturated request (MAX_TIMEOUT_MS: "at least that long") is refused even by the largest maxRetryWait', async () => {
    const model = new ScriptedModel([http(503, MAX_TIMEOUT_MS), textResponse('unused')]);
    const sleep = recordingSleep();
    const agent = new Agent({ model, maxAttempts: 2, maxRetryWait: MAX_TIMEOUT_MS, sleep });

    const error = await runError(agent.run('Hi'));

    expect(error.cause).toMatchObject({ requested: MAX_TIMEOUT_MS, allowed: MAX_TIMEOUT_MS });
    expect((error.cause as Error).message).toContain(`wait at least ${MAX_TIMEOUT_MS} ms`);
    expect(sleep).not.toHaveBeenCalled();
  });

  test('a custom error asking for more than a timer holds (1e12 ms) is refused, never clamped to a short wait', async () => {
    const huge = Object.assign(new Error('quota'), { retryable: true, retryAfter: 1e12 });
    const model = new ScriptedModel([huge, textResponse('unused')]);
    const sleep = recordingSleep();
    const agent = new Agent({ model, maxAttempts: 2, maxRetryWait: MAX_TIMEOUT_MS, sleep });

    const error = await runError(agent.run('Hi'));

    expect(error.cause).toMatchObject({ requested: 1e12 });
    expect(sleep).not.toHaveBeenCalled();
  });

  test('when the backoff alone already waits longer than asked, the retry happens after the backoff', async () => {
    const model = new ScriptedModel([http(429, 120_000), textResponse('ok')]);
    const sleep = recordingSleep();
    const agent = new Agent({ model, maxAttempts: 2, retryBackoff: () => 200_000, sleep });

    await agent.run('Hi');

    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([200_000]);
  });

  test('the last attempt keeps its usual error: no refusal when no retry was left anyway', async () => {
    const model = new ScriptedModel([http(503), http(429, 600_000)]);
    const agent = new Agent({ model, maxAttempts: 2, sleep: recordingSleep() });

    const error = await runError(agent.run('Hi'));

    expect(AttemptsExhaustedError.is(error.cause)).toBe(true);
  });
});

describe('backoff waits are bounded', () => {
  test.each([
    ['Infinity', Infinity, MAX_TIMEOUT_MS],
    ['1e12', 1e12, MAX_TIMEOUT_MS],
    ['-5', -5, 0],
  ])('a backoff of %s waits %p ms', async (_name, backoff, expected) => {
    const model = new ScriptedModel([http(503), textResponse('ok')]);
    const sleep = recordingSleep();
    await new Agent({ model, maxAttempts: 2, retryBackoff: () => backoff, sleep }).run('Hi');
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([expected]);
  });

  test('a backoff returning NaN fails the run at the model stage with a ConfigError naming retryBackoff', async () => {
    const model = new ScriptedModel([http(503), textResponse('unused')]);
    const sleep = recordingSleep();
    const agent = new Agent({ model, maxAttempts: 2, retryBackoff: () => NaN, sleep });

    const error = await runError(agent.run('Hi'));

    expect(ConfigError.is(error.cause)).toBe(true);
    expect((error.cause as Error).message).toBe(
      'Agent `retryBackoff` returned NaN for attempt 1; it must return a number of ms >= 0',
    );
    expect(sleep).not.toHaveBeenCalled();
  });
});

describe('maxRetryWait validation', () => {
  const model = new ScriptedModel([]);

  test.each([-1, NaN, Infinity, MAX_TIMEOUT_MS + 1, '5'])('maxRetryWait %p → ConfigError', (v) => {
    const error = thrown(() => new Agent({ model, maxRetryWait: v as number }));
    expect(ConfigError.is(error)).toBe(true);
    expect((error as Error).message).toContain('Agent `maxRetryWait`');
  });

  test.each([0, 1, MAX_TIMEOUT_MS])('maxRetryWait %p is accepted', (v) => {
    expect(() => new Agent({ model, maxRetryWait: v })).not.toThrow();
  });
});

describe('planRetry properties', () => {
  const retryAfter = fc.oneof(
    fc.constant(undefined),
    fc.nat({ max: MAX_TIMEOUT_MS }),
    fc.double({ min: 0, max: 1e15, noNaN: true }),
  );
  const backoff = fc.oneof(
    fc.double({ noNaN: true }),
    fc.constantFrom(Infinity, -Infinity, 0, MAX_TIMEOUT_MS + 1),
  );

  test('a wait is within [0, MAX_TIMEOUT_MS] and never shorter than the provider asked; refusals only for requests beyond maxRetryWait and the backoff', () => {
    fc.assert(
      fc.property(
        backoff,
        retryAfter,
        fc.nat({ max: MAX_TIMEOUT_MS }),
        fc.integer({ min: 1, max: 100 }),
        (planned, asked, maxWait, attempt) => {
          const plan = planRetry(() => planned, attempt, asked, maxWait);
          if (plan.refused !== undefined) {
            expect(asked).toBe(plan.refused);
            expect(plan.refused > maxWait || plan.refused >= MAX_TIMEOUT_MS).toBe(true);
            return;
          }
          expect(plan.wait).toBeGreaterThanOrEqual(0);
          expect(plan.wait).toBeLessThanOrEqual(MAX_TIMEOUT_MS);
          expect(Number.isNaN(plan.wait)).toBe(false);
          if (asked !== undefined) {
            expect(plan.wait).toBeGreaterThanOrEqual(asked);
            expect(asked).toBeLessThan(MAX_TIMEOUT_MS);
          }
        },
      ),
    );
  });
});

describe('timerSleep', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });
  afterEach(() => {
    jest.useRealTimers();
  });

  test('a wait longer than one Node timer holds is chained, never fired early, and leaves no timer', async () => {
    let done = false;
    const slept = timerSleep(3_000_000_000, new AbortController().signal).then(() => {
      done = true;
    });

    await jest.advanceTimersByTimeAsync(MAX_TIMEOUT_MS + 1);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(3_000_000_000 - MAX_TIMEOUT_MS - 2);
    expect(done).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    await slept;
    expect(done).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });

  test('aborting a chained wait rejects with the cancellation error and clears its timer', async () => {
    const controller = new AbortController();
    const slept = timerSleep(5_000_000_000, controller.signal).then(
      () => undefined,
      (e: unknown) => e,
    );
    await jest.advanceTimersByTimeAsync(MAX_TIMEOUT_MS + 10);
    controller.abort();

    expect(isCancellation(await slept)).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
  });

  test('a wait of 0, a negative wait or NaN resolves without a timer', async () => {
    const signal = new AbortController().signal;
    const waits = [0, -1, NaN].map((ms) => timerSleep(ms, signal));
    expect(jest.getTimerCount()).toBe(0);
    await Promise.all(waits);
  });
});

test('RetryAfterTooLongError classifies as retryable (a caller that can wait may schedule it)', () => {
  const error = new RetryAfterTooLongError({
    requested: 1,
    allowed: 0,
    attempts: 1,
    cause: http(429, 1),
  });
  expect(isRetryable(error)).toBe(true);
  expect(RetryAfterTooLongError.is(error)).toBe(true);
});
