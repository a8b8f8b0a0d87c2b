/**
 * A tool, a decoder or a model that throws a hostile value (throwing getters, revoked or
 * trap-throwing proxies, frozen objects that cannot become text, null-prototype objects, symbols,
 * functions) ends the run with a `RunError` at the right stage, its partial evidence intact and the
 * hostile value kept as the cause — never with the error of a getter the engine tripped over.
 */
import { Agent, ModelRetry, RunError, ToolError, defineTool, type Sleep } from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { HOSTILE_KINDS, containsHostileRead } from '../../../support/hostile-values';
import { AttemptsExhaustedError, StreamAbandonedError } from '../../../support/internal-errors';

const kinds = HOSTILE_KINDS.map((kind) => [kind.name, kind] as const);

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected the run to fail');
    },
    (error: unknown) => error,
  );
}

/** Asserts a `RunError` at `stage` whose message is text and whose chain holds no getter's error. */
function runError(error: unknown, stage: RunError['stage']): RunError {
  expect(containsHostileRead(error)).toBe(false);
  expect(RunError.is(error)).toBe(true);
  const run = error as RunError;
  expect(run.stage).toBe(stage);
  expect(typeof run.message).toBe('string');
  return run;
}

function roles(run: RunError): string[] {
  return (run.partial?.messages ?? []).map((m) => m.role);
}

const callProbe = () => toolCallResponse([{ id: 'call-1', name: 'probe', args: {} }]);
const okTool = defineTool({ name: 'probe', schema: { type: 'object' }, execute: () => 'ok' });
const instantSleep = () => jest.fn<Promise<void>, Parameters<Sleep>>(() => Promise.resolve());

describe('a tool that throws a hostile value', () => {
  test.each(kinds)(
    '%s → tool stage, ToolError caused by the value, evidence kept',
    async (_n, kind) => {
      const value = kind.make();
      const tool = defineTool({
        name: 'probe',
        schema: { type: 'object' },
        execute: () => {
          throw value;
        },
      });
      const agent = new Agent({ model: new ScriptedModel([callProbe()]), tools: [tool] });
      const run = runError(await failure(agent.run('go')), 'tool');
      expect(ToolError.is(run.cause)).toBe(true);
      expect((run.cause as ToolError).cause === value).toBe(true);
      expect(roles(run)).toEqual(['user', 'assistant']);
      expect(run.partial?.toolCalls).toBe(1);
    },
  );

  test.each(kinds)('%s from an approval policy → tool stage, same evidence', async (_n, kind) => {
    const value = kind.make();
    const tool = defineTool({
      name: 'probe',
      schema: { type: 'object' },
      approval: () => {
        throw value;
      },
      execute: () => 'never',
    });
    const model = new ScriptedModel([callProbe()]);
    const agent = new Agent({ model, tools: [tool], deferredTools: true });
    const run = runError(await failure(agent.run('go')), 'tool');
    expect((run.cause as ToolError).cause === value).toBe(true);
    expect(roles(run)).toEqual(['user', 'assistant']);
  });

  test('a ModelRetry whose reason cannot be read is still a correction ("(no reason)")', async () => {
    const retry = new Proxy(new ModelRetry('hidden'), {
      get: (target, key) => {
        if (key === 'reason') throw new Error('hostile reason');
        return Reflect.get(target, key) as unknown;
      },
    });
    let calls = 0;
    const tool = defineTool({
      name: 'probe',
      schema: { type: 'object' },
      execute: () => {
        if (calls++ === 0) throw retry;
        return 'ok';
      },
    });
    const model = new ScriptedModel([callProbe(), callProbe(), textResponse('done')]);
    const result = await new Agent({ model, tools: [tool], toolRetries: 1 }).run('go');
    expect(result.output).toBe('done');
    expect(result.messages[2]?.content).toBe(
      'Your tool call was rejected: (no reason). Correct the arguments and call the tool again.',
    );
  });
});

describe('a decoder that throws a hostile value', () => {
  test.each(kinds)('%s → decode stage, caused by the value, final turn kept', async (_n, kind) => {
    const value = kind.make();
    const agent = new Agent({
      model: new ScriptedModel([textResponse('answer')]),
      outputRetries: 2,
      output: () => {
        throw value;
      },
    });
    const run = runError(await failure(agent.run('go')), 'decode');
    expect(run.cause === value).toBe(true);
    expect(roles(run)).toEqual(['user', 'assistant']);
    expect(run.partial?.messages[1]?.content).toBe('answer');
  });
});

describe('a model that throws a hostile value', () => {
  test.each(kinds)('%s → model stage, not retried, earlier turns kept', async (_n, kind) => {
    const value = kind.make();
    const model = new ScriptedModel([
      callProbe(),
      () => {
        throw value;
      },
    ]);
    const sleep = instantSleep();
    const agent = new Agent({ model, tools: [okTool], maxAttempts: 3, sleep });
    const run = runError(await failure(agent.run('go')), 'model');
    expect(run.cause === value).toBe(true);
    expect(model.calls).toBe(2);
    expect(sleep).not.toHaveBeenCalled();
    expect(roles(run)).toEqual(['user', 'assistant', 'tool']);
  });

  test.each(kinds)('%s while streaming → model stage, earlier turns kept', async (_n, kind) => {
    const value = kind.make();
    const model = new ScriptedModel([
      callProbe(),
      () => {
        throw value;
      },
    ]);
    const stream = new Agent({ model, tools: [okTool] }).runStream('go');
    for await (const delta of stream) expect(delta).toBeDefined();
    const run = runError(await failure(stream.result), 'model');
    expect(run.cause === value).toBe(true);
    expect(roles(run)).toEqual(['user', 'assistant', 'tool']);
  });

  test.each(kinds)(
    '%s from an onDelta handler → model stage, streamed text kept',
    async (_n, kind) => {
      const value = kind.make();
      const model = new ScriptedModel([textResponse('partial answer')]);
      const stream = new Agent({ model }).runStream('go', {
        onDelta: () => {
          throw value;
        },
      });
      const run = runError(await failure(stream.result), 'model');
      expect(run.cause === value).toBe(true);
      expect(run.partial?.interrupted?.content).toBe('partial answer');
    },
  );

  test.each(kinds)(
    "%s passed to the stream iterator's throw() → a rejection, then StreamAbandonedError",
    async (_n, kind) => {
      const value = kind.make();
      const model = new ScriptedModel([textResponse('answer')]);
      const stream = new Agent({ model }).runStream('go');
      const iterator = stream[Symbol.asyncIterator]();
      const thrown = await (iterator.throw?.(value) ?? Promise.resolve()).then(
        () => undefined,
        (e: unknown) => ({ e }),
      );
      expect(thrown).toBeDefined();
      const run = runError(await failure(stream.result), 'model');
      expect(StreamAbandonedError.is(run.cause)).toBe(true);
    },
  );

  test('a retryable error whose message and retryAfter cannot be read retries with the backoff', async () => {
    const value = Object.defineProperties(new Error('hidden'), {
      retryable: { value: true },
      message: {
        get() {
          throw new Error('hostile message');
        },
      },
      retryAfter: {
        get() {
          throw new Error('hostile retryAfter');
        },
      },
    });
    const model = new ScriptedModel([() => Promise.reject(value), () => Promise.reject(value)]);
    const sleep = instantSleep();
    const agent = new Agent({ model, maxAttempts: 2, sleep, retryBackoff: (n) => n * 100 });
    const run = runError(await failure(agent.run('go')), 'model');
    expect(AttemptsExhaustedError.is(run.cause)).toBe(true);
    expect((run.cause as AttemptsExhaustedError).cause === value).toBe(true);
    expect(run.message).toBe(
      'golem: model stage: model failed after 2 attempts: Error (no readable message)',
    );
    expect(sleep.mock.calls.map(([ms]) => ms)).toEqual([100]);
  });
});
