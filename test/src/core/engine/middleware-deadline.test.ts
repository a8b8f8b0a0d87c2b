/**
 * Deadlines and cancellation hold around middleware (issue 30): a middleware that waits (a rate
 * limit) waits inside the call's deadline, sees the call's signal, and the run's cancellation
 * wins. Fake timers — no real waiting.
 */
import { Agent, RunError, isCancellation, type Middleware } from 'golem';
import { FunctionModel, textResponse } from 'golem/testing';
import { cancellationError } from '../../../../src/core/errors/cancellation';
import { TurnTimeoutError } from '../../../support/internal-errors';

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] });
});
afterEach(() => {
  jest.useRealTimers();
});

/** Waits until the call's signal aborts, the first time only; then passes calls on. */
function waitsOnce(): Middleware & { waited: number } {
  const layer = {
    waited: 0,
    generate: ((call, next) => {
      if (layer.waited++ > 0) return next(call.request);
      const signal = call.options?.signal;
      return new Promise((_resolve, reject) => {
        signal?.addEventListener('abort', () => {
          reject(cancellationError(signal));
        });
      });
    }) as NonNullable<Middleware['generate']>,
  };
  return layer;
}

test('a middleware still waiting when the turn deadline passes fails the attempt, which is retried', async () => {
  const layer = waitsOnce();
  const model = new FunctionModel(() => textResponse('ok'));
  const agent = new Agent({
    model,
    middleware: [layer],
    turnTimeout: 1_000,
    maxAttempts: 2,
    sleep: () => Promise.resolve(),
  });
  const errors: unknown[] = [];

  const running = agent.run('hi', {
    observer: (e) => {
      if (e.kind === 'model_end' && e.error !== undefined) errors.push(e.error);
    },
  });
  await jest.advanceTimersByTimeAsync(1_000);
  const result = await running;

  expect(result.output).toBe('ok');
  expect(result.requests).toBe(2);
  expect(TurnTimeoutError.is(errors[0])).toBe(true);
  expect(model.calls).toBe(1);
});

test("the run's cancellation reaches a waiting middleware and wins", async () => {
  const layer = waitsOnce();
  const controller = new AbortController();
  const agent = new Agent({
    model: new FunctionModel(() => textResponse('x')),
    middleware: [layer],
  });

  const running = agent.run('hi', { signal: controller.signal });
  controller.abort(new Error('user left'));
  const error = await running.catch((e: unknown) => e);

  expect(RunError.is(error) && error.stage).toBe('model');
  expect(isCancellation((error as RunError).cause)).toBe(true);
});
