import {
  Agent,
  CancelledError,
  DeadlineExceededError,
  ModelHTTPError,
  RunError,
  ToolError,
  defineTool,
  errorChain,
  findError,
  isCancellation,
  isDeadlineExceeded,
  type Message,
  type Model,
  type ModelResponse,
} from 'golem';
import { INTERRUPTED_RESULT } from '../../../../src/core/engine/repair';
import { cancellationError } from '../../../../src/core/errors/cancellation';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

const schema = { type: 'object' } as const;

/** Awaits a run that must fail with a RunError and returns it. */
async function runError(run: Promise<unknown>): Promise<RunError> {
  try {
    await run;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the run to fail');
}

/** A model counting its calls, playing `turns` in order. */
function countingModel(
  turns: ((signal: AbortSignal | undefined) => Promise<ModelResponse>)[],
): Model & { calls: number } {
  const model = {
    calls: 0,
    generate(_request: unknown, options?: { signal?: AbortSignal }): Promise<ModelResponse> {
      const turn = turns[model.calls];
      model.calls++;
      if (turn === undefined) return Promise.reject(new Error(`no turn ${model.calls}`));
      return turn(options?.signal);
    },
  };
  return model;
}

/** A model turn that never settles on its own: it rejects with `errorOf(signal)` when its signal aborts. */
function rejectOnAbort(
  signal: AbortSignal | undefined,
  errorOf: (signal: AbortSignal) => Error,
): Promise<never> {
  return new Promise<never>((_resolve, reject) => {
    if (signal === undefined) {
      reject(new Error('the model received no signal'));
      return;
    }
    signal.addEventListener(
      'abort',
      () => {
        reject(errorOf(signal));
      },
      { once: true },
    );
  });
}

describe('§6 cancellation (decision D4: v0.7.2 wrapping)', () => {
  test('ER-4 a pre-aborted signal fails at the model stage without calling the model and without partial', async () => {
    const controller = new AbortController();
    controller.abort();
    const model = countingModel([() => Promise.resolve(textResponse('never'))]);
    const error = await runError(new Agent({ model }).run('q', { signal: controller.signal }));
    expect(model.calls).toBe(0);
    expect(error.stage).toBe('model');
    expect(CancelledError.is(error.cause)).toBe(true);
    expect(isCancellation(error)).toBe(true);
    expect(isDeadlineExceeded(error)).toBe(false);
    expect(error.partial).toBeUndefined();
  });

  test('ER-4 a custom abort reason is reachable in the chain as the cause of the CancelledError', async () => {
    const reason = new Error('user pressed stop');
    const controller = new AbortController();
    controller.abort(reason);
    const error = await runError(
      new Agent({ model: new ScriptedModel([textResponse('never')]) }).run('q', {
        signal: controller.signal,
      }),
    );
    const cancelled = findError(error, CancelledError.is);
    expect(cancelled).toBeDefined();
    expect(cancelled?.cause).toBe(reason);
    expect([...errorChain(error)]).toContain(reason);
  });

  test('aborting during a model call reports the signal cancellation, not the model error, with the earlier turn as partial', async () => {
    const controller = new AbortController();
    const modelError = new Error('socket closed');
    const ping = defineTool({ name: 'ping', schema, execute: () => 'pong' });
    const model = countingModel([
      () =>
        Promise.resolve(
          toolCallResponse([{ id: 'call-1', name: 'ping' }], { inputTokens: 4, outputTokens: 2 }),
        ),
      (signal) => {
        const pending = rejectOnAbort(signal, () => modelError);
        controller.abort();
        return pending;
      },
    ]);
    const error = await runError(
      new Agent({ model, tools: [ping] }).run('q', { signal: controller.signal }),
    );
    expect(model.calls).toBe(2);
    expect(error.stage).toBe('model');
    expect(CancelledError.is(error.cause)).toBe(true);
    expect([...errorChain(error)]).not.toContain(modelError);
    expect(error.partial).toEqual({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', toolCalls: [{ id: 'call-1', name: 'ping', args: '{}' }] },
        { role: 'tool', content: 'pong', toolCallId: 'call-1', toolName: 'ping' },
      ],
      usage: { inputTokens: 4, outputTokens: 2 },
      requests: 2,
      toolCalls: 1,
    });
  });

  test('aborting during the first model call reports the cancellation with partial absent', async () => {
    const controller = new AbortController();
    const model = countingModel([
      (signal) => {
        const pending = rejectOnAbort(signal, () => new Error('socket closed'));
        controller.abort();
        return pending;
      },
    ]);
    const error = await runError(new Agent({ model }).run('q', { signal: controller.signal }));
    expect(error.stage).toBe('model');
    expect(CancelledError.is(error.cause)).toBe(true);
    expect(error.partial).toBeUndefined();
  });

  test('a cancellation during a retry backoff wait ends the run at the model stage without another attempt', async () => {
    const controller = new AbortController();
    const sleep = jest.fn((_ms: number, signal: AbortSignal) => {
      controller.abort();
      return Promise.reject(cancellationError(signal));
    });
    const model = new ScriptedModel([
      new ModelHTTPError({ status: 503, provider: 'test' }),
      textResponse('never'),
    ]);
    const error = await runError(
      new Agent({ model, maxAttempts: 3, sleep }).run('q', { signal: controller.signal }),
    );
    expect(sleep).toHaveBeenCalledTimes(1);
    expect(model.calls).toBe(1);
    expect(error.stage).toBe('model');
    expect(CancelledError.is(error.cause)).toBe(true);
    expect(error.partial).toBeUndefined();
  });

  test('ER-5 a tool that cancels the run and returns "ok" stops the batch: the second tool never runs', async () => {
    const controller = new AbortController();
    const second = jest.fn(() => 'second ran');
    const cancel = defineTool({
      name: 'cancel',
      schema,
      execute: () => {
        controller.abort();
        return 'ok';
      },
    });
    const after = defineTool({ name: 'after', schema, execute: second });
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'call-1', name: 'cancel' },
        { id: 'call-2', name: 'after' },
      ]),
      textResponse('never'),
    ]);
    const error = await runError(
      new Agent({ model, tools: [cancel, after] }).run('q', { signal: controller.signal }),
    );
    expect(second).not.toHaveBeenCalled();
    expect(model.calls).toBe(1);
    expect(error.stage).toBe('tool');
    const toolError = findError(error, ToolError.is);
    expect(toolError).toBeDefined();
    expect(isCancellation(toolError)).toBe(true);
    expect(findError(error, CancelledError.is)).toBeDefined();
  });

  test('ER-5 the cancelled batch leaves partial evidence ending at the assistant message', async () => {
    const controller = new AbortController();
    const cancel = defineTool({
      name: 'cancel',
      schema,
      execute: () => {
        controller.abort();
        return 'ok';
      },
    });
    const after = defineTool({ name: 'after', schema, execute: () => 'second ran' });
    const assistant: Message = {
      role: 'assistant',
      toolCalls: [
        { id: 'call-1', name: 'cancel', args: '{}' },
        { id: 'call-2', name: 'after', args: '{}' },
      ],
    };
    const model = new ScriptedModel([
      toolCallResponse(
        [
          { id: 'call-1', name: 'cancel' },
          { id: 'call-2', name: 'after' },
        ],
        { inputTokens: 3, outputTokens: 1 },
      ),
    ]);
    const error = await runError(
      new Agent({ model, tools: [cancel, after] }).run('q', { signal: controller.signal }),
    );
    expect(error.partial).toEqual({
      messages: [{ role: 'user', content: 'q' }, assistant],
      usage: { inputTokens: 3, outputTokens: 1 },
      requests: 1,
      toolCalls: 1,
    });
  });

  test('a run `timeout` ends a model call that waits for its signal with a model-stage DeadlineExceededError', async () => {
    const model = countingModel([(signal) => rejectOnAbort(signal, (s) => s.reason as Error)]);
    const error = await runError(new Agent({ model }).run('q', { timeout: 5 }));
    expect(model.calls).toBe(1);
    expect(error.stage).toBe('model');
    expect(DeadlineExceededError.is(error.cause)).toBe(true);
    expect(isDeadlineExceeded(error)).toBe(true);
    expect(isCancellation(error)).toBe(true);
    expect(error.partial).toBeUndefined();
  });

  test('the partial evidence of an aborted run continues as history with the dangling calls repaired', async () => {
    const controller = new AbortController();
    const cancel = defineTool({
      name: 'cancel',
      schema,
      execute: () => {
        controller.abort();
        return 'ok';
      },
    });
    const after = defineTool({ name: 'after', schema, execute: () => 'second ran' });
    const first = new ScriptedModel([
      toolCallResponse([
        { id: 'call-1', name: 'cancel' },
        { id: 'call-2', name: 'after' },
      ]),
    ]);
    const error = await runError(
      new Agent({ model: first, tools: [cancel, after] }).run('q', { signal: controller.signal }),
    );
    const history = error.partial?.messages;
    expect(history).toBeDefined();

    const second = new ScriptedModel([textResponse('recovered')]);
    const result = await new Agent({ model: second, tools: [cancel, after] }).run('try again', {
      history: history ?? [],
    });
    const expected: Message[] = [
      { role: 'user', content: 'q' },
      {
        role: 'assistant',
        toolCalls: [
          { id: 'call-1', name: 'cancel', args: '{}' },
          { id: 'call-2', name: 'after', args: '{}' },
        ],
      },
      { role: 'tool', content: INTERRUPTED_RESULT, toolCallId: 'call-1', toolName: 'cancel' },
      { role: 'tool', content: INTERRUPTED_RESULT, toolCallId: 'call-2', toolName: 'after' },
      { role: 'user', content: 'try again' },
    ];
    expect(second.lastRequest?.messages).toEqual(expected);
    expect(result.output).toBe('recovered');
    expect(result.messages).toEqual([...expected, { role: 'assistant', content: 'recovered' }]);
  });
});
