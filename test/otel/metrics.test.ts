import { Agent, ModelHTTPError, defineTool, type ModelResponse } from 'golem';
import { METRIC, otelInstrumentation } from 'golem/otel';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';
import { histogram, otelHarness, type OtelHarness } from './harness';

// The convention's client histograms, recorded with the real metrics SDK (in-memory reader).

let otel: OtelHarness;
beforeEach(() => {
  otel = otelHarness();
});
afterEach(async () => {
  await otel.shutdown();
});

const echo = defineTool({ name: 'echo', schema: { type: 'object' }, execute: () => 'ok' });

const withModel = (response: ModelResponse): ModelResponse => ({
  ...response,
  modelName: 'gpt-4o-mini-2024-07-18',
});

function agent(metrics = true): Agent {
  return new Agent({
    model: new ScriptedModel(
      [
        new ModelHTTPError({ status: 503, provider: 'openai' }),
        withModel(
          toolCallResponse([{ id: 'c1', name: 'echo' }], { inputTokens: 1200, outputTokens: 20 }),
        ),
        withModel(textResponse('done', { inputTokens: 1300, outputTokens: 30 })),
      ],
      { name: 'openai:gpt-4o-mini' },
    ),
    tools: [echo],
    maxAttempts: 2,
    sleep: () => Promise.resolve(),
    instrumentation: otelInstrumentation({
      tracerProvider: otel.tracerProvider,
      meterProvider: otel.meterProvider,
      metrics,
    }),
  });
}

const base = {
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'openai',
  'gen_ai.request.model': 'gpt-4o-mini',
};

test('gen_ai.client.token.usage: one input and one output record per answered call, with the bucket boundaries', async () => {
  await agent().run('go');
  const points = await histogram(otel.reader, METRIC.tokenUsage);
  const summary = points.map((p) => [p.attributes, p.value.count, p.value.sum]);
  expect(summary).toEqual([
    [
      { ...base, 'gen_ai.response.model': 'gpt-4o-mini-2024-07-18', 'gen_ai.token.type': 'input' },
      2,
      2500,
    ],
    [
      { ...base, 'gen_ai.response.model': 'gpt-4o-mini-2024-07-18', 'gen_ai.token.type': 'output' },
      2,
      50,
    ],
  ]);
  expect(points[0]?.value.buckets.boundaries).toEqual(METRIC.tokenUsageBuckets);
  const { resourceMetrics } = await otel.reader.collect();
  const descriptor = resourceMetrics.scopeMetrics[0]?.metrics.find(
    (m) => m.descriptor.name === METRIC.tokenUsage,
  )?.descriptor;
  expect([descriptor?.unit, descriptor?.description]).toEqual([
    '{token}',
    'Number of input and output tokens used.',
  ]);
});

test('gen_ai.client.operation.duration: every attempt in seconds, the failed one with error.type', async () => {
  await agent().run('go');
  const points = await histogram(otel.reader, METRIC.duration);
  const byAttributes = points.map((p) => [p.attributes, p.value.count]);
  expect(byAttributes).toEqual([
    [{ ...base, 'error.type': '503' }, 1],
    [{ ...base, 'gen_ai.response.model': 'gpt-4o-mini-2024-07-18' }, 2],
  ]);
  for (const point of points) {
    expect(point.value.buckets.boundaries).toEqual(METRIC.durationBuckets);
    expect(point.value.min).toBeGreaterThanOrEqual(0);
    expect(point.value.max).toBeLessThan(60); // seconds, not milliseconds
  }
});

test('metrics: false records nothing, spans still flow', async () => {
  await agent(false).run('go');
  expect(await histogram(otel.reader, METRIC.tokenUsage)).toEqual([]);
  expect(await histogram(otel.reader, METRIC.duration)).toEqual([]);
  expect(otel.spans().length).toBeGreaterThan(0);
});
