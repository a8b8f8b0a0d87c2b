/**
 * `@Agent` passes the per-turn deadline (`turnTimeout`) and the longest provider wait
 * (`maxRetryWait`) through to the engine, validated like the engine's own options (issue 12).
 */
import { ModelHTTPError, RunError, findError, type Sleep } from 'golem';
import { cancellationError } from '../../src/core/errors/cancellation';
import { Agent, agentFromClass } from 'golem/decorators';
import { FunctionModel, ScriptedModel, textResponse } from 'golem/testing';
import { RetryAfterTooLongError, TurnTimeoutError } from '../support/internal-errors';

afterEach(() => {
  jest.useRealTimers();
});

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

test('@Agent({ turnTimeout }) bounds each model call', async () => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
  @Agent({ turnTimeout: 250 })
  class Slow {}
  const model = new FunctionModel(
    (_r, { signal }) =>
      new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => {
          reject(cancellationError(signal));
        });
      }),
  );

  const outcome = failure(agentFromClass(new Slow(), { model }).run('Hi'));
  await jest.advanceTimersByTimeAsync(250);
  const error = await outcome;

  expect(RunError.is(error)).toBe(true);
  expect(findError(error, TurnTimeoutError.is)?.timeout).toBe(250);
});

test('@Agent({ maxRetryWait }) refuses a longer provider wait', async () => {
  @Agent({ maxAttempts: 3, maxRetryWait: 1_000 })
  class Patient {}
  const model = new ScriptedModel([
    new ModelHTTPError({ status: 429, provider: 'p', retryAfter: 5_000 }),
    textResponse('unused'),
  ]);
  const sleep = jest.fn<Promise<void>, Parameters<Sleep>>(() => Promise.resolve());

  const error = await failure(agentFromClass(new Patient(), { model, sleep }).run('Hi'));

  expect(findError(error, RetryAfterTooLongError.is)).toMatchObject({
    requested: 5_000,
    allowed: 1_000,
  });
  expect(sleep).not.toHaveBeenCalled();
});

test('an invalid @Agent turnTimeout is reported when the class is compiled', () => {
  @Agent({ turnTimeout: -1 })
  class Broken {}
  expect(() => agentFromClass(new Broken(), { model: new ScriptedModel([]) })).toThrow(
    /turnTimeout/,
  );
});
