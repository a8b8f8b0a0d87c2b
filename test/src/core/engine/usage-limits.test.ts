import {
  Agent,
  ConfigError,
  ModelHTTPError,
  ModelRetry,
  RunError,
  UsageLimitError,
  defineTool,
  findError,
  type ModelResponse,
  type UsageLimit,
} from 'golem';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

// Spec §15 (usage limits) with decision D7: the bounds are checked after every model response.

async function runFailure(promise: Promise<unknown>): Promise<RunError> {
  try {
    await promise;
  } catch (error) {
    if (RunError.is(error)) return error;
    throw error;
  }
  throw new Error('expected the run to fail with a RunError');
}

function usageError(error: RunError): UsageLimitError {
  expect(error.stage).toBe('usage');
  const limit = findError(error, UsageLimitError.is);
  if (limit === undefined) throw new Error('expected a UsageLimitError in the chain');
  return limit;
}

function countingTool(executed: string[], name = 'lookup') {
  return defineTool({
    name,
    schema: { type: 'object' },
    execute: (_args, ctx) => {
      executed.push(ctx.callId);
      return `${name} result`;
    },
  });
}

describe('usage limits (spec §15)', () => {
  test('UL-1 usage 12/3 under totalTokens 100 succeeds and reports usage 12/3', async () => {
    const agent = new Agent({
      model: new ScriptedModel([textResponse('fine', { inputTokens: 12, outputTokens: 3 })]),
      usageLimit: { totalTokens: 100 },
    });

    const result = await agent.run('go');

    expect(result.output).toBe('fine');
    expect(result.usage).toEqual({ inputTokens: 12, outputTokens: 3 });
  });

  test('UL-1 a total exactly at its bound does not cross it (strictly greater)', async () => {
    const agent = new Agent({
      model: new ScriptedModel([textResponse('fine', { inputTokens: 12, outputTokens: 3 })]),
      usageLimit: { inputTokens: 12, outputTokens: 3, totalTokens: 15, requests: 1 },
    });

    expect((await agent.run('go')).output).toBe('fine');
  });

  test('UL-2 a response of 4/6 with outputTokens 5 fails at the usage stage before decoding', async () => {
    const decoder = jest.fn((response: ModelResponse) => response.message.content ?? '');
    const model = new ScriptedModel([
      textResponse('would decode', { inputTokens: 4, outputTokens: 6 }),
    ]);
    const agent = new Agent({ model, output: decoder, usageLimit: { outputTokens: 5 } });

    const error = await runFailure(agent.run('go'));

    const limit = usageError(error);
    expect([limit.limitKind, limit.limit, limit.actual]).toEqual(['output token', 5, 6]);
    expect(limit.message).toBe('run exceeded the output token limit of 5 (used 6)');
    expect(decoder).not.toHaveBeenCalled();
    expect(error.partial?.messages).toEqual([
      { role: 'user', content: 'go' },
      { role: 'assistant', content: 'would decode' },
    ]);
    expect(error.partial?.usage).toEqual({ inputTokens: 4, outputTokens: 6 });
  });

  test('UL-2 when several bounds are crossed, the first in the order input, output, total, request, tool call wins', async () => {
    const model = new ScriptedModel([textResponse('x', { inputTokens: 10, outputTokens: 10 })]);
    const agent = new Agent({
      model,
      usageLimit: { requests: 0, toolCalls: 0, totalTokens: 1, outputTokens: 1, inputTokens: 1 },
    });

    const limit = usageError(await runFailure(agent.run('go')));

    expect([limit.limitKind, limit.limit, limit.actual]).toEqual(['input token', 1, 10]);
  });

  test('UL-3 two correction rounds of 3/2 with totalTokens 8 fail with total token 10 after 2 model calls', async () => {
    const model = new ScriptedModel([
      textResponse('first', { inputTokens: 3, outputTokens: 2 }),
      textResponse('second', { inputTokens: 3, outputTokens: 2 }),
    ]);
    const decoder = jest.fn((response: ModelResponse): string => {
      throw new ModelRetry(`not ${response.message.content ?? ''}`);
    });
    const agent = new Agent({
      model,
      output: decoder,
      outputRetries: 1,
      usageLimit: { totalTokens: 8 },
    });

    const error = await runFailure(agent.run('go'));

    const limit = usageError(error);
    expect([limit.limitKind, limit.limit, limit.actual]).toEqual(['total token', 8, 10]);
    expect(model.calls).toBe(2);
    expect(decoder).toHaveBeenCalledTimes(1);
    expect(error.partial?.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(error.partial?.usage).toEqual({ inputTokens: 6, outputTokens: 4 });
  });

  test('UL-4 requests 1 with a tool turn and a final turn fails with request 1 (used 2)', async () => {
    const executed: string[] = [];
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'lookup' }]),
      textResponse('final'),
    ]);
    const agent = new Agent({
      model,
      tools: [countingTool(executed)],
      usageLimit: { requests: 1 },
    });

    const limit = usageError(await runFailure(agent.run('go')));

    expect([limit.limitKind, limit.limit, limit.actual]).toEqual(['request', 1, 2]);
    expect(executed).toEqual(['call-1']);
    expect(model.calls).toBe(2);
  });

  test('UL-5 toolCalls 1 with a batch of 2 fails with tool call 1 (used 2); both calls executed', async () => {
    const executed: string[] = [];
    const model = new ScriptedModel([
      toolCallResponse([
        { id: 'call-1', name: 'lookup' },
        { id: 'call-2', name: 'lookup' },
      ]),
      textResponse('final'),
    ]);
    const agent = new Agent({
      model,
      tools: [countingTool(executed)],
      usageLimit: { toolCalls: 1 },
    });

    const error = await runFailure(agent.run('go'));

    const limit = usageError(error);
    expect([limit.limitKind, limit.limit, limit.actual]).toEqual(['tool call', 1, 2]);
    expect(executed).toEqual(['call-1', 'call-2']);
    expect(error.partial?.toolCalls).toBe(2);
  });

  test('UL-6 requests 2 and toolCalls 1 with a single text answer succeed', async () => {
    const agent = new Agent({
      model: new ScriptedModel([textResponse('only', { inputTokens: 1, outputTokens: 1 })]),
      usageLimit: { requests: 2, toolCalls: 1 },
    });

    const result = await agent.run('go');

    expect(result.output).toBe('only');
    expect(result.requests).toBe(1);
    expect(result.toolCalls).toBe(0);
  });

  test('UL-7 without a limit, 10 000/9 000 tokens succeed', async () => {
    const agent = new Agent({
      model: new ScriptedModel([textResponse('big', { inputTokens: 10_000, outputTokens: 9_000 })]),
    });

    const result = await agent.run('go');

    expect(result.output).toBe('big');
    expect(result.usage).toEqual({ inputTokens: 10_000, outputTokens: 9_000 });
  });

  test('UL-7 a limit whose fields are all 0 is disabled', async () => {
    const usageLimit = {
      inputTokens: 0,
      outputTokens: 0,
      totalTokens: 0,
      requests: 0,
      toolCalls: 0,
    };
    const agent = new Agent({
      model: new ScriptedModel([textResponse('big', { inputTokens: 10_000, outputTokens: 9_000 })]),
      usageLimit,
    });

    expect((await agent.run('go')).output).toBe('big');
  });

  test.each(['inputTokens', 'outputTokens', 'totalTokens', 'requests', 'toolCalls'] as const)(
    'UL-7 a negative usageLimit.%s is a construction error',
    (field) => {
      const usageLimit: UsageLimit = { [field]: -1 };
      const build = (): unknown => new Agent({ model: new ScriptedModel([]), usageLimit });
      expect(build).toThrow(ConfigError);
      expect(build).toThrow(field);
    },
  );

  test('UL-8 inputTokens 5 with a tool turn reporting 6 input tokens fails right after that response (D7)', async () => {
    const executed: string[] = [];
    const model = new ScriptedModel([
      toolCallResponse([{ id: 'call-1', name: 'lookup' }], { inputTokens: 6, outputTokens: 1 }),
      textResponse('never'),
    ]);
    const agent = new Agent({
      model,
      tools: [countingTool(executed)],
      usageLimit: { inputTokens: 5 },
    });

    const error = await runFailure(agent.run('go'));

    const limit = usageError(error);
    expect([limit.limitKind, limit.limit, limit.actual]).toEqual(['input token', 5, 6]);
    expect(executed).toEqual([]);
    expect(model.calls).toBe(1);
    expect(error.partial?.messages.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(error.partial?.toolCalls).toBe(0);
    expect(error.partial?.requests).toBe(1);
  });

  test('UL-9 a retried attempt counts toward requests: 1 failure + 1 success with requests 1 crosses it', async () => {
    const sleep = jest.fn((_ms: number, _signal: AbortSignal) => Promise.resolve());
    const model = new ScriptedModel([
      new ModelHTTPError({ status: 503, provider: 'test' }),
      textResponse('recovered', { inputTokens: 1, outputTokens: 1 }),
    ]);
    const agent = new Agent({
      model,
      maxAttempts: 2,
      retryBackoff: () => 0,
      sleep,
      usageLimit: { requests: 1 },
    });

    const error = await runFailure(agent.run('go'));

    const limit = usageError(error);
    expect([limit.limitKind, limit.limit, limit.actual]).toEqual(['request', 1, 2]);
    expect(model.calls).toBe(2);
    expect(error.partial?.requests).toBe(2);
    expect(error.partial?.usage).toEqual({ inputTokens: 1, outputTokens: 1 });
  });

  test('UL-10 total 1200+800 with totalTokens 1000: the exact UsageLimitError message', async () => {
    const agent = new Agent({
      model: new ScriptedModel([textResponse('long', { inputTokens: 1200, outputTokens: 800 })]),
      usageLimit: { totalTokens: 1000 },
    });

    const error = await runFailure(agent.run('go'));

    const limit = usageError(error);
    expect(limit.message).toBe('run exceeded the total token limit of 1000 (used 2000)');
    expect(error.message).toBe(
      'golem: usage stage: run exceeded the total token limit of 1000 (used 2000)',
    );
    expect(error.cause).toBe(limit);
    expect(UsageLimitError.is(limit)).toBe(true);
    expect([limit.limitKind, limit.limit, limit.actual]).toEqual(['total token', 1000, 2000]);
  });
});
