/**
 * A plain model turn (nothing observes, traces, prices, wraps or bounds it) is awaited by the loop
 * itself; its first attempt's failure — a rejection, a synchronous throw, a response that does not
 * normalise — continues in the full attempt loop exactly as an observed turn's does: the same
 * retries, the same result, the same failure.
 */
import { Agent, defineTool, ModelHTTPError, type Model, type RunError, type RunEvent } from 'golem';
import { textResponse, toolCallResponse } from 'golem/testing';

/** A model whose first call does `first`, and whose later calls answer "ok". */
function firstFails(first: () => unknown): Model & { calls: number } {
  const model = {
    name: 'flaky',
    calls: 0,
    generate() {
      model.calls += 1;
      if (model.calls === 1) return first() as ReturnType<Model['generate']>;
      return Promise.resolve(textResponse('ok'));
    },
  };
  return model;
}

const busy = () => new ModelHTTPError({ provider: 'p', status: 429 });
const refused = () => new ModelHTTPError({ provider: 'p', status: 400 });

const retryable: [string, () => unknown][] = [
  ['a rejection', () => Promise.reject(busy())],
  [
    'a synchronous throw',
    () => {
      throw busy();
    },
  ],
];

/** The run's outcome, plain (no options) and observed (an observer takes it off the plain path). */
async function both(first: () => unknown, maxAttempts: number) {
  const outcome = async (observed: boolean) => {
    const model = firstFails(first);
    const agent = new Agent({ model, maxAttempts, retryBackoff: () => 0 });
    const options = observed ? { observer: (_event: RunEvent) => undefined } : {};
    try {
      const result = await agent.run('Hi', options);
      return { ok: true, output: result.output, requests: result.requests, calls: model.calls };
    } catch (error) {
      const failure = error as RunError;
      return {
        ok: false,
        stage: failure.stage,
        cause: (failure.cause as Error).name,
        evidence: failure.partial,
        calls: model.calls,
      };
    }
  };
  return { plain: await outcome(false), observed: await outcome(true) };
}

describe.each(retryable)('a plain turn whose first attempt fails with %s', (_name, first) => {
  test('is retried in the attempt loop when attempts remain, like an observed turn', async () => {
    const { plain, observed } = await both(first, 3);
    expect(plain).toEqual({ ok: true, output: 'ok', requests: 2, calls: 2 });
    expect(observed).toEqual(plain);
  });

  test('fails the run at the model stage when none remain, like an observed turn', async () => {
    const { plain, observed } = await both(first, 1);
    expect(plain).toEqual({
      ok: false,
      stage: 'model',
      cause: 'ModelHTTPError',
      evidence: undefined,
      calls: 1,
    });
    expect(observed).toEqual(plain);
  });
});

test.each([
  ['a refusal (HTTP 400)', () => Promise.reject(refused()), 'ModelHTTPError'],
  ['a response that does not normalise', () => Promise.resolve({ nope: 1 }), 'ModelResponseError'],
])('%s is not retried, plain or observed', async (_name, first, cause) => {
  const { plain, observed } = await both(first, 3);
  expect(plain).toEqual({ ok: false, stage: 'model', cause, evidence: undefined, calls: 1 });
  expect(observed).toEqual(plain);
});

test('a later turn fails with the evidence of the turns before it, plain or observed', async () => {
  const outcome = async (observed: boolean) => {
    let calls = 0;
    const model: Model = {
      name: 'second-fails',
      generate: () => {
        calls += 1;
        return calls === 1
          ? Promise.resolve(toolCallResponse([{ id: 'c1', name: 'echo', args: '{"text":"x"}' }]))
          : Promise.reject(refused());
      },
    };
    const echo = defineTool({
      name: 'echo',
      schema: { type: 'object', properties: { text: { type: 'string' } } },
      execute: (args: { text?: string }) => args.text ?? '',
    });
    const agent = new Agent({ model, tools: [echo] });
    const error = (await agent.run('Hi', observed ? { observer: () => undefined } : {}).then(
      () => undefined,
      (e: unknown) => e,
    )) as RunError;
    return { stage: error.stage, messages: error.partial?.messages.map((m) => m.role), calls };
  };
  const plain = await outcome(false);
  expect(plain).toEqual({ stage: 'model', messages: ['user', 'assistant', 'tool'], calls: 2 });
  expect(await outcome(true)).toEqual(plain);
});
