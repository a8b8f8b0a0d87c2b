/**
 * FallbackModel and provider waits (issue 12): an exhausted chain carries the longest wait any
 * member asked for, so the agent's retry (which restarts at the primary) never calls a member
 * sooner than it asked, and a wait beyond `maxRetryWait` ends the run instead.
 */
import {
  Agent,
  FallbackModel,
  ModelHTTPError,
  RunError,
  findError,
  retryAfterOf,
  type Sleep,
} from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { ScriptedModel, textResponse } from 'golem/testing';
import { FallbackExhaustedError, RetryAfterTooLongError } from '../../../support/internal-errors';

function http(status: number, retryAfter?: number): ModelHTTPError {
  return new ModelHTTPError({ status, provider: 'p', retryAfter });
}

const hi = { messages: [userMessage('hi')], tools: [] };

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => undefined,
    (e: unknown) => e,
  );
}

test('FallbackExhaustedError.retryAfter is the longest wait any member asked for', async () => {
  const chain = new FallbackModel([
    new ScriptedModel([http(429, 5_000)]),
    new ScriptedModel([http(503)]),
    new ScriptedModel([http(503, 1_000)]),
  ]);

  const error = (await failure(chain.generate(hi))) as FallbackExhaustedError;

  expect(FallbackExhaustedError.is(error)).toBe(true);
  expect(error.retryAfter).toBe(5_000);
  expect(retryAfterOf(error)).toBe(5_000);
});

test('no member asked for a wait → retryAfter undefined (the backoff applies)', async () => {
  const chain = new FallbackModel([new ScriptedModel([http(503)]), new ScriptedModel([http(503)])]);
  const error = (await failure(chain.generate(hi))) as FallbackExhaustedError;
  expect(error.retryAfter).toBeUndefined();
  expect(retryAfterOf(error)).toBeUndefined();
});

test('the agent waits for the primary’s longer request before restarting the chain at the primary', async () => {
  const primary = new ScriptedModel([http(429, 5_000), textResponse('ok')]);
  const backup = new ScriptedModel([http(503, 1_000)]);
  const sleep = jest.fn<Promise<void>, Parameters<Sleep>>(() => Promise.resolve());
  const agent = new Agent({
    model: new FallbackModel([primary, backup]),
    maxAttempts: 2,
    retryBackoff: () => 0,
    sleep,
  });

  const result = await agent.run('Hi');

  expect(result.output).toBe('ok');
  expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([5_000]);
  expect([primary.calls, backup.calls]).toEqual([2, 1]);
});

test('a member asking for longer than maxRetryWait ends the run with RetryAfterTooLongError, chain not restarted', async () => {
  const primary = new ScriptedModel([http(429, 600_000), textResponse('unused')]);
  const backup = new ScriptedModel([http(503), textResponse('unused')]);
  const sleep = jest.fn<Promise<void>, Parameters<Sleep>>(() => Promise.resolve());
  const agent = new Agent({ model: new FallbackModel([primary, backup]), maxAttempts: 3, sleep });

  const error = await failure(agent.run('Hi'));

  expect(RunError.is(error) && error.stage).toBe('model');
  const refused = findError(error, RetryAfterTooLongError.is);
  expect(refused).toMatchObject({ requested: 600_000, allowed: 60_000 });
  expect(FallbackExhaustedError.is(refused?.cause)).toBe(true);
  expect([primary.calls, backup.calls]).toEqual([1, 1]);
  expect(sleep).not.toHaveBeenCalled();
});
