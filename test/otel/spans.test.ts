import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  Agent,
  FallbackModel,
  ModelHTTPError,
  ModelRetry,
  RunError,
  decodeJSON,
  defineTool,
  priceTable,
  type ModelResponse,
} from 'golem';
import { otelInstrumentation } from 'golem/otel';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { named, otelHarness, spanTree, type OtelHarness } from './harness';

// Exact span trees and attributes (OpenTelemetry GenAI semantic conventions) with the real SDK.

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

function instrumentation() {
  return otelInstrumentation({
    tracerProvider: otel.tracerProvider,
    meterProvider: otel.meterProvider,
  });
}

const forecast = defineTool({
  name: 'forecast',
  description: 'Forecast for one city',
  schema: { type: 'object', properties: { city: { type: 'string' } } },
  execute: (args) => `31°C in ${(args as { city: string }).city}`,
});

function answered(response: ModelResponse, id: string, model: string): ModelResponse {
  return { ...response, responseId: id, modelName: model };
}

const prices = priceTable({ 'openai:gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 } });

describe('span trees (GenAI semantic conventions)', () => {
  test('a tool loop: invoke_agent with chat, execute_tool, chat children and their exact attributes', async () => {
    const model = new ScriptedModel(
      [
        answered(
          toolCallResponse([{ id: 'call_1', name: 'forecast', args: { city: 'Lagos' } }], {
            inputTokens: 1200,
            outputTokens: 20,
            cacheReadTokens: 1000,
          }),
          'chatcmpl-1',
          'gpt-4o-mini-2024-07-18',
        ),
        answered(
          textResponse('Sunny, 31°C.', {
            inputTokens: 1300,
            outputTokens: 30,
            reasoningTokens: 10,
          }),
          'chatcmpl-2',
          'gpt-4o-mini-2024-07-18',
        ),
      ],
      { name: 'openai:gpt-4o-mini' },
    );
    const agent = new Agent({
      name: 'weather',
      model,
      tools: [forecast],
      prices,
      modelSettings: { temperature: 0.2, maxTokens: 256 },
      instrumentation: instrumentation(),
    });

    const result = await agent.run('Weather in Lagos?');

    const spans = otel.spans();
    expect(spanTree(spans)).toBe(
      [
        'invoke_agent weather',
        '  chat gpt-4o-mini',
        '  execute_tool forecast',
        '  chat gpt-4o-mini',
      ].join('\n'),
    );
    const [run] = named(spans, 'invoke_agent weather');
    const [chat1, chat2] = named(spans, 'chat gpt-4o-mini');
    const [tool] = named(spans, 'execute_tool forecast');
    expect(run?.kind).toBe(SpanKind.INTERNAL);
    expect(chat1?.kind).toBe(SpanKind.CLIENT);
    expect(tool?.kind).toBe(SpanKind.INTERNAL);
    // Sums in the order the engine adds them (float addition is not associative).
    const input1 = (200 * 0.15 + 1000 * 0.075) / 1e6;
    const input2 = (1300 * 0.15) / 1e6;
    const output1 = (20 * 0.6) / 1e6;
    const output2 = (30 * 0.6) / 1e6;
    const cost1 = input1 + output1;
    const cost2 = input2 + output2;
    expect(chat1?.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.request.temperature': 0.2,
      'gen_ai.request.max_tokens': 256,
      'golem.turn': 0,
      'golem.attempt': 1,
      'golem.context.tokens': 9, // the prompt, estimated (no provider usage before the first call)
      'gen_ai.response.id': 'chatcmpl-1',
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'gen_ai.response.finish_reasons': ['tool_calls'],
      'gen_ai.usage.input_tokens': 1200,
      'gen_ai.usage.output_tokens': 20,
      'gen_ai.usage.cache_read.input_tokens': 1000,
      'golem.cost.total': cost1,
      'golem.cost.input': input1,
      'golem.cost.output': output1,
      'golem.cost.currency': 'USD',
    });
    expect(chat2?.attributes).toMatchObject({
      'golem.turn': 1,
      // The first response's measured 1,220 tokens plus the tool result's estimate.
      'golem.context.tokens': expect.any(Number) as unknown,
      'gen_ai.response.id': 'chatcmpl-2',
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.usage.reasoning.output_tokens': 10,
    });
    expect(tool?.attributes).toEqual({
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'forecast',
      'gen_ai.tool.call.id': 'call_1',
      'gen_ai.tool.type': 'function',
      'gen_ai.tool.description': 'Forecast for one city',
      'golem.turn': 0,
    });
    expect(run?.attributes).toEqual({
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.provider.name': 'openai',
      'gen_ai.agent.name': 'weather',
      'gen_ai.request.model': 'gpt-4o-mini',
      'gen_ai.output.type': 'text',
      'gen_ai.usage.input_tokens': 2500,
      'gen_ai.usage.output_tokens': 50,
      'gen_ai.usage.cache_read.input_tokens': 1000,
      'gen_ai.usage.reasoning.output_tokens': 10,
      'gen_ai.response.model': 'gpt-4o-mini-2024-07-18',
      'golem.run.requests': 2,
      'golem.run.tool_calls': 1,
      'golem.cost.total': cost1 + cost2,
      'golem.cost.input': input1 + input2,
      'golem.cost.output': output1 + output2,
      'golem.cost.currency': 'USD',
    });
    expect(result.cost).toEqual({
      total: cost1 + cost2,
      input: input1 + input2,
      output: output1 + output2,
      currency: 'USD',
      unpriced: 0,
    });
    for (const span of spans) expect(span.status.code).toBe(SpanStatusCode.UNSET);
    // Content is off by default.
    for (const span of spans)
      for (const key of Object.keys(span.attributes))
        expect(key).not.toMatch(/messages|instructions|arguments|result/);
  });

  test('a retried call: one chat span per attempt, the failed one with error.type and status ERROR', async () => {
    const model = new ScriptedModel(
      [
        new ModelHTTPError({ status: 429, provider: 'openai' }),
        textResponse('ok', { inputTokens: 3, outputTokens: 1 }),
      ],
      { name: 'openai:gpt-4o-mini' },
    );
    const agent = new Agent({
      name: 'retrying',
      model,
      maxAttempts: 2,
      sleep: () => Promise.resolve(),
      instrumentation: instrumentation(),
    });

    await agent.run('go');

    const spans = otel.spans();
    expect(spanTree(spans)).toBe(
      ['invoke_agent retrying', '  chat gpt-4o-mini', '  chat gpt-4o-mini'].join('\n'),
    );
    const [failed, ok] = named(spans, 'chat gpt-4o-mini');
    expect(failed?.attributes).toMatchObject({ 'golem.attempt': 1, 'error.type': '429' });
    expect(failed?.status.code).toBe(SpanStatusCode.ERROR);
    expect(failed?.events.map((e) => e.name)).toEqual(['exception']);
    expect(failed?.attributes['gen_ai.usage.input_tokens']).toBeUndefined();
    expect(ok?.attributes).toMatchObject({ 'golem.attempt': 2, 'gen_ai.usage.input_tokens': 3 });
    expect(ok?.attributes['error.type']).toBeUndefined();
    expect(ok?.status.code).toBe(SpanStatusCode.UNSET);
    expect(named(spans, 'invoke_agent retrying')[0]?.status.code).toBe(SpanStatusCode.UNSET);
  });

  test('a fallback: the chat span carries a golem.fallback event and names the member that answered', async () => {
    const primary = new ScriptedModel([new ModelHTTPError({ status: 503, provider: 'openai' })], {
      name: 'openai:gpt-4o',
    });
    const backup = new ScriptedModel(
      [textResponse('from backup', { inputTokens: 4, outputTokens: 2 })],
      {
        name: 'anthropic:claude-haiku-4-5',
      },
    );
    const agent = new Agent({
      name: 'resilient',
      model: new FallbackModel([primary, backup]),
      instrumentation: instrumentation(),
    });

    await agent.run('go');

    const spans = otel.spans();
    expect(spanTree(spans)).toBe(['invoke_agent resilient', '  chat claude-haiku-4-5'].join('\n'));
    const [chat] = named(spans, 'chat claude-haiku-4-5');
    expect(chat?.events.map((e) => [e.name, e.attributes])).toEqual([
      [
        'golem.fallback',
        {
          'golem.fallback.from': 'openai:gpt-4o',
          'golem.fallback.to': 'anthropic:claude-haiku-4-5',
          'error.type': '503',
        },
      ],
    ]);
    expect(chat?.attributes).toMatchObject({
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-haiku-4-5',
      'gen_ai.usage.input_tokens': 4,
    });
    expect(chat?.status.code).toBe(SpanStatusCode.UNSET);
    expect(named(spans, 'invoke_agent resilient')[0]?.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4o',
    });
  });

  test('a correction round: a golem.output_rejected event on invoke_agent between the two chats', async () => {
    let calls = 0;
    const agent = new Agent({
      name: 'strict',
      model: new ScriptedModel([textResponse('{"n":0}'), textResponse('{"n":2}')]),
      output: decodeJSON((value) => {
        calls++;
        if ((value as { n: number }).n <= 0) throw new ModelRetry('n must be positive, got 0');
        return value;
      }),
      outputRetries: 1,
      instrumentation: instrumentation(),
    });

    await agent.run('a positive n');

    const spans = otel.spans();
    expect(calls).toBe(2);
    expect(spanTree(spans)).toBe(
      ['invoke_agent strict', '  chat scripted', '  chat scripted'].join('\n'),
    );
    const [run] = named(spans, 'invoke_agent strict');
    expect(run?.events.map((e) => [e.name, e.attributes])).toEqual([
      ['golem.output_rejected', { 'golem.output.round': 1, 'error.type': 'ModelRetry' }],
    ]);
    expect(run?.attributes['gen_ai.provider.name']).toBe('scripted');
    expect(run?.status.code).toBe(SpanStatusCode.UNSET);
  });

  test('a failed run: the tool span and invoke_agent end in ERROR with error.type and the stage', async () => {
    const broken = defineTool({
      name: 'ledger',
      schema: { type: 'object' },
      execute: () => {
        throw new TypeError('ledger unavailable');
      },
    });
    const agent = new Agent({
      name: 'bookkeeper',
      model: new ScriptedModel([toolCallResponse([{ id: 'c1', name: 'ledger' }])]),
      tools: [broken],
      instrumentation: instrumentation(),
    });

    await expect(agent.run('post it')).rejects.toBeInstanceOf(RunError);

    const spans = otel.spans();
    expect(spanTree(spans)).toBe(
      ['invoke_agent bookkeeper', '  chat scripted', '  execute_tool ledger'].join('\n'),
    );
    const [tool] = named(spans, 'execute_tool ledger');
    expect(tool?.status).toEqual({ code: SpanStatusCode.ERROR, message: 'ledger unavailable' });
    expect(tool?.attributes['error.type']).toBe('TypeError');
    const [run] = named(spans, 'invoke_agent bookkeeper');
    expect(run?.status.code).toBe(SpanStatusCode.ERROR);
    expect(run?.status.message).toMatch(/tool stage/);
    expect(run?.attributes).toMatchObject({ 'error.type': 'TypeError', 'golem.run.stage': 'tool' });
    expect(run?.events[0]?.name).toBe('exception');
  });

  test('a streamed run: the chat span is marked golem.stream and carries the usage', async () => {
    const agent = new Agent({
      name: 'streamer',
      model: new ScriptedModel([textResponse('streamed', { inputTokens: 7, outputTokens: 3 })]),
      instrumentation: instrumentation(),
    });

    const stream = agent.runStream('go');
    const deltas: string[] = [];
    for await (const delta of stream) if (delta.content !== undefined) deltas.push(delta.content);
    await stream.result;

    const spans = otel.spans();
    expect(deltas).toEqual(['streamed']);
    expect(spanTree(spans)).toBe(['invoke_agent streamer', '  chat scripted'].join('\n'));
    expect(named(spans, 'chat scripted')[0]?.attributes).toMatchObject({
      'golem.stream': true,
      'gen_ai.usage.input_tokens': 7,
      'gen_ai.usage.output_tokens': 3,
    });
    expect(named(spans, 'invoke_agent streamer')[0]?.attributes['golem.stream']).toBe(true);
  });

  test('a paused run: the deferred call and the pause are visible; the resumed run is its own trace', async () => {
    const transfer = defineTool({
      name: 'transfer',
      schema: { type: 'object' },
      approval: true,
      execute: () => 'sent',
    });
    const agent = new Agent({
      name: 'banker',
      model: new ScriptedModel([
        toolCallResponse([{ id: 'pay_1', name: 'transfer' }]),
        textResponse('Done.'),
      ]),
      tools: [transfer],
      deferredTools: true,
      instrumentation: instrumentation(),
    });

    const paused = await agent.run('pay Ada');
    expect(paused.pending?.approvals.map((p) => p.callId)).toEqual(['pay_1']);
    const first = otel.spans();
    expect(spanTree(first)).toBe(
      ['invoke_agent banker', '  chat scripted', '  execute_tool transfer'].join('\n'),
    );
    const [deferred] = named(first, 'execute_tool transfer');
    expect(deferred?.attributes['golem.tool.deferred']).toBe(true);
    expect(deferred?.events.map((e) => e.name)).toEqual(['golem.tool.deferred']);
    expect(deferred?.status.code).toBe(SpanStatusCode.UNSET);
    const [run] = named(first, 'invoke_agent banker');
    expect(run?.attributes['golem.run.pending_calls']).toBe(1);
    expect(run?.events.map((e) => [e.name, e.attributes])).toEqual([
      ['golem.run.paused', { 'golem.pending.approvals': ['pay_1'], 'golem.pending.external': [] }],
    ]);

    otel.exporter.reset();
    await agent.resume(paused.messages, { approvals: { pay_1: { approved: true } } });
    expect(spanTree(otel.spans())).toBe(
      ['invoke_agent banker', '  execute_tool transfer', '  chat scripted'].join('\n'),
    );
    expect(named(otel.spans(), 'execute_tool transfer')[0]?.attributes['golem.tool.deferred']).toBe(
      undefined,
    );
  });
});
