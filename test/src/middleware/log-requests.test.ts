import { Agent, ConfigError, defineTool, ModelHTTPError, RunError } from 'golem';
import { FunctionModel, StreamFunctionModel, textResponse, toolCallResponse } from 'golem/testing';
import { logRequests, type RequestLogger } from 'golem/middleware';
import { memoryStore } from 'golem/stores/memory';

interface Captured {
  readonly logger: RequestLogger;
  readonly infos: Record<string, unknown>[];
  readonly errors: Record<string, unknown>[];
}

function capture(): Captured {
  const infos: Record<string, unknown>[] = [];
  const errors: Record<string, unknown>[] = [];
  return {
    infos,
    errors,
    logger: {
      info: (entry) => infos.push(entry as Record<string, unknown>),
      error: (entry) => errors.push(entry as Record<string, unknown>),
    },
  };
}

/** A clock advancing 10 ms per reading. */
function clock(): () => number {
  let t = 1000;
  return () => (t += 10);
}

const lookup = defineTool({
  name: 'lookup',
  description: 'Looks a city up.',
  schema: { type: 'object', properties: { city: { type: 'string' } } },
  execute: (args) => `sunny in ${(args as { city: string }).city}`,
});

function twoTurnModel(): FunctionModel {
  let turn = 0;
  return new FunctionModel(
    () =>
      turn++ === 0
        ? toolCallResponse([{ id: 'c1', name: 'lookup', args: { city: 'Lagos' } }], {
            inputTokens: 5,
            outputTokens: 2,
          })
        : textResponse('It is sunny.', { inputTokens: 9, outputTokens: 3 }),
    { name: 'fn:test' },
  );
}

describe('logRequests', () => {
  test('summary: one entry per model call and per tool call, without conversation text', async () => {
    const { logger, infos, errors } = capture();
    const agent = new Agent({
      model: twoTurnModel(),
      name: 'weather',
      tools: [lookup],
      store: memoryStore(),
      middleware: [logRequests({ logger, now: clock() })],
    });
    await agent.run('Weather in Lagos?', {
      owner: 'user-1',
      conversation: 'conv-9',
      runId: 'run-1',
    });
    expect(errors).toEqual([]);
    expect(infos).toEqual([
      {
        event: 'golem.model_call',
        model: 'fn:test',
        agent: 'weather',
        owner: 'user-1',
        runId: 'run-1',
        conversationId: 'conv-9',
        turn: 0,
        attempt: 1,
        messages: 1,
        tools: ['lookup'],
        durationMs: 10,
        usage: { inputTokens: 5, outputTokens: 2 },
        finishReason: 'tool_calls',
        toolCalls: ['lookup'],
      },
      {
        event: 'golem.tool_call',
        tool: 'lookup',
        callId: 'c1',
        agent: 'weather',
        owner: 'user-1',
        runId: 'run-1',
        conversationId: 'conv-9',
        durationMs: 10,
        resultChars: 'sunny in Lagos'.length,
      },
      expect.objectContaining({ event: 'golem.model_call', turn: 1, messages: 3, toolCalls: [] }),
    ]);
    expect(JSON.stringify(infos)).not.toMatch(/Lagos\?|sunny in|It is sunny/);
  });

  test('full: messages, response, tool args and results, passed through redact', async () => {
    const { logger, infos } = capture();
    const agent = new Agent({
      model: twoTurnModel(),
      tools: [lookup],
      middleware: [
        logRequests({ logger, level: 'full', redact: (t) => t.replace(/Lagos/g, '<city>') }),
      ],
    });
    await agent.run('Weather in Lagos?');
    expect(infos[0]).toMatchObject({
      request: [{ role: 'user', content: 'Weather in <city>?' }],
      response: {
        role: 'assistant',
        toolCalls: [{ id: 'c1', name: 'lookup', args: '{"city":"<city>"}' }],
      },
    });
    expect(infos[1]).toMatchObject({ args: '{"city":"<city>"}', result: 'sunny in <city>' });
    expect(infos[2]).toMatchObject({ response: { role: 'assistant', content: 'It is sunny.' } });
    expect(JSON.stringify(infos)).not.toContain('Lagos');
  });

  test('include picks details; a Nest-style logger with log() works', async () => {
    const logged: object[] = [];
    const agent = new Agent({
      model: new FunctionModel(() => textResponse('ok')),
      modelSettings: { temperature: 0 },
      middleware: [
        logRequests({
          logger: { log: (e) => logged.push(e), error: () => undefined },
          include: ['settings'],
        }),
      ],
    });
    await agent.run('hi');
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({ settings: '{"temperature":0}' });
    expect(logged[0]).not.toHaveProperty('request');
  });

  test('never logs a secret: key shapes, Bearer, authorization headers and given secrets', async () => {
    const { logger, infos, errors } = capture();
    const secret = 'my-private-token-123';
    const model = new FunctionModel(() => {
      throw new ModelHTTPError({
        message:
          'refused: Authorization: Bearer abcdefghijklmnop, x-api-key: sk-ant-abcdefghijklmnopqrstu, ' +
          `key AIzaSyA1234567890abcdefghijklmnopqrstu, url https://h/v1?key=zzzzzzzz, token ${secret}`,
        status: 401,
        retryable: false,
        provider: 'test',
      });
    });
    const agent = new Agent({
      model,
      middleware: [logRequests({ logger, level: 'full', secrets: [secret] })],
    });
    const error = await agent
      .run(`use sk-proj-abcdefghijklmnop1234 please`)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunError);
    expect(infos).toEqual([]);
    expect(errors).toHaveLength(1);
    const text = JSON.stringify(errors);
    for (const leaked of ['abcdefghijklmnop', 'sk-ant', 'AIzaSy', 'zzzzzzzz', secret, 'sk-proj'])
      expect(text).not.toContain(leaked);
    expect(errors[0]).toMatchObject({
      event: 'golem.model_call_failed',
      error: {
        name: 'ModelHTTPError',
        message: expect.stringContaining('Bearer [redacted]') as unknown,
      },
      request: [{ role: 'user', content: 'use [redacted] please' }],
    });
  });

  test('a failing tool is logged with logger.error and still fails as before', async () => {
    const { logger, errors } = capture();
    let turn = 0;
    const model = new FunctionModel(() =>
      turn++ === 0
        ? toolCallResponse([{ id: 'c1', name: 'boom', args: {} }])
        : textResponse('recovered'),
    );
    const boom = defineTool({
      name: 'boom',
      description: 'Fails.',
      schema: { type: 'object', properties: {} },
      execute: () => {
        throw new TypeError('disk gone');
      },
    });
    const agent = new Agent({
      model,
      tools: [boom],
      middleware: [logRequests({ logger, now: clock() })],
    });
    await agent.run('go').catch(() => undefined);
    expect(errors[0]).toEqual({
      event: 'golem.tool_call_failed',
      tool: 'boom',
      callId: 'c1',
      agent: 'agent',
      durationMs: 10,
      error: { name: 'TypeError', message: 'disk gone' },
    });
  });

  test('a streamed call is logged once, when it ends; fragments still reach the caller', async () => {
    const { logger, infos } = capture();
    const model = new StreamFunctionModel(async (_request, emit) => {
      await emit({ content: 'Hel' });
      await emit({ content: 'lo' });
      return textResponse('Hello', { inputTokens: 1, outputTokens: 2 });
    });
    const agent = new Agent({ model, middleware: [logRequests({ logger })] });
    const stream = agent.runStream('hi');
    const fragments: string[] = [];
    for await (const delta of stream)
      if (delta.content !== undefined) fragments.push(delta.content);
    await stream.result;
    expect(fragments.join('')).toBe('Hello');
    expect(infos).toHaveLength(1);
    expect(infos[0]).toMatchObject({
      event: 'golem.model_call',
      usage: { inputTokens: 1, outputTokens: 2 },
    });
  });

  test('options are checked', () => {
    expect(() => logRequests({ logger: { info: () => undefined } as never })).toThrow(ConfigError);
    expect(() => logRequests({ level: 'debug' as never })).toThrow(/level/);
    expect(() => logRequests({ include: ['headers' as never] })).toThrow(/include/);
    expect(() => logRequests({ redact: 'x' as never })).toThrow(ConfigError);
    expect(() => logRequests({ secrets: [1 as never] })).toThrow(ConfigError);
  });
});
