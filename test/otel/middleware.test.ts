import { Agent, priceTable, type Middleware } from 'golem';
import { otelInstrumentation } from 'golem/otel';
import { FunctionModel, textResponse } from 'golem/testing';
import { named, otelHarness, type OtelHarness } from './harness';

// Middleware runs inside the chat span: a cache answer and a middleware failure as spans show them.

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

const prices = priceTable({ 'openai:gpt-4o-mini': { input: 0.15, output: 0.6 } });

test('a call a cache answered carries golem.cache.hit, zero tokens and zero cost', async () => {
  let hits = 0;
  const cache: Middleware = {
    generate: async (call, next) => {
      if (hits++ === 0) return next(call.request);
      return {
        message: { role: 'assistant', content: 'remembered' },
        usage: { inputTokens: 0, outputTokens: 0, cachedResponses: 1 },
      };
    },
  };
  const model = new FunctionModel(
    () => textResponse('live', { inputTokens: 10, outputTokens: 2 }),
    {
      name: 'openai:gpt-4o-mini',
    },
  );
  const agent = new Agent({
    model,
    name: 'cached',
    prices,
    middleware: [cache],
    instrumentation: instrumentation(),
  });

  await agent.run('first');
  const second = await agent.run('second');

  expect(second.usage).toEqual({ inputTokens: 0, outputTokens: 0, cachedResponses: 1 });
  expect(second.cost?.total).toBe(0);
  const [live, cached] = named(otel.spans(), 'chat gpt-4o-mini');
  expect(live?.attributes['golem.cache.hit']).toBeUndefined();
  expect(live?.attributes['gen_ai.usage.input_tokens']).toBe(10);
  expect(cached?.attributes).toMatchObject({
    'golem.cache.hit': true,
    'golem.usage.cached_responses': 1,
    'gen_ai.usage.input_tokens': 0,
    'gen_ai.usage.output_tokens': 0,
    'golem.cost.total': 0,
  });
  const [, run] = named(otel.spans(), 'invoke_agent cached');
  expect(run?.attributes['golem.usage.cached_responses']).toBe(1);
});

test('a middleware failure ends the chat span with an error, like a provider failure', async () => {
  const broken: Middleware = {
    request: () => {
      throw new RangeError('bad middleware');
    },
  };
  const agent = new Agent({
    model: new FunctionModel(() => textResponse('x'), { name: 'openai:gpt-4o-mini' }),
    middleware: [broken],
    instrumentation: instrumentation(),
  });

  await expect(agent.run('hi')).rejects.toThrow('bad middleware');

  const [chat] = named(otel.spans(), 'chat gpt-4o-mini');
  expect(chat?.status.code).toBe(2);
  expect(chat?.attributes['error.type']).toBe('RangeError');
});
