/**
 * Observability: an agent run traced with OpenTelemetry (GenAI semantic conventions) and priced
 * from a price table, all in memory — the span tree with its key attributes, the token-usage
 * histogram, and what the run cost. Swap the in-memory exporter for an OTLP one to see the same
 * spans in Jaeger, Tempo, Honeycomb, Datadog or Logfire.
 */
import { context } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  AggregationTemporality,
  MeterProvider,
  MetricReader,
  type DataPoint,
  type Histogram,
} from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import { Agent, defineTool, priceTable, type ModelResponse } from 'golem';
import { METRIC, otelInstrumentation } from 'golem/otel';
import { ScriptedModel, textResponse, toolCallResponse } from 'golem/testing';

/** Collects metrics when asked (a real app uses a PeriodicExportingMetricReader). */
class OnDemandReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.CUMULATIVE });
  }
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

const SHOWN = [
  'gen_ai.provider.name',
  'gen_ai.request.model',
  'gen_ai.response.id',
  'gen_ai.tool.call.id',
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.cache_read.input_tokens',
  'gen_ai.usage.output_tokens',
  'golem.cost.total',
];

/** Integers as they are; costs rounded to 8 decimals. */
function show(value: unknown): string {
  return typeof value === 'number' && !Number.isInteger(value)
    ? String(Number(value.toFixed(8)))
    : String(value);
}

/** The spans as an indented tree, children in start order, with a few attributes each. */
function tree(spans: readonly ReadableSpan[], log: (line: string) => void): void {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const parentOf = (s: ReadableSpan) => {
    const parent = s.parentSpanContext?.spanId;
    return parent !== undefined && ids.has(parent) ? parent : undefined;
  };
  const byStart = (a: ReadableSpan, b: ReadableSpan) =>
    a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1];
  const walk = (parent: string | undefined, depth: number): void => {
    for (const span of spans.filter((s) => parentOf(s) === parent).sort(byStart)) {
      const attributes = SHOWN.filter((key) => span.attributes[key] !== undefined)
        .map((key) => `${key.replace(/^gen_ai\.|^golem\./, '')}=${show(span.attributes[key])}`)
        .join(' ');
      log(`${'  '.repeat(depth)}${span.name}  ${attributes}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
}

const answered = (response: ModelResponse, id: string): ModelResponse => ({
  ...response,
  responseId: id,
  modelName: 'gpt-4o-mini-2024-07-18',
});

export async function main(log: (line: string) => void = console.log): Promise<void> {
  // 1. The OpenTelemetry SDK (here in memory) and async context, as an app sets them up once.
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new OnDemandReader();
  const meterProvider = new MeterProvider({ readers: [reader] });

  // 2. One option traces every run; another prices every response.
  const forecast = defineTool({
    name: 'forecast',
    description: 'Forecast for one city',
    schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    execute: (args) => `31°C and sunny in ${(args as { city: string }).city}`,
  });
  const agent = new Agent({
    name: 'weather',
    model: new ScriptedModel(
      [
        answered(
          toolCallResponse([{ id: 'call_1', name: 'forecast', args: { city: 'Lagos' } }], {
            inputTokens: 1200,
            outputTokens: 18,
            cacheReadTokens: 1024,
          }),
          'chatcmpl-1',
        ),
        answered(
          textResponse('31°C and sunny.', { inputTokens: 1250, outputTokens: 9 }),
          'chatcmpl-2',
        ),
      ],
      { name: 'openai:gpt-4o-mini' }, // a real adapter is named the same way
    ),
    tools: [forecast],
    instrumentation: otelInstrumentation({ tracerProvider, meterProvider }),
    prices: priceTable({ 'openai:gpt-4o-mini': { input: 0.15, output: 0.6, cacheRead: 0.075 } }),
  });

  const result = await agent.run('Weather in Lagos?');

  log('span tree:');
  tree(exporter.getFinishedSpans(), log);
  const { resourceMetrics } = await reader.collect();
  const usage = resourceMetrics.scopeMetrics
    .flatMap((scope) => scope.metrics)
    .find((metric) => metric.descriptor.name === METRIC.tokenUsage);
  log(`${METRIC.tokenUsage} ({token}):`);
  for (const point of (usage?.dataPoints ?? []) as DataPoint<Histogram>[])
    log(
      `  ${String(point.attributes['gen_ai.token.type'])}: ${point.value.count} calls, ${point.value.sum ?? 0} tokens`,
    );
  log(`usage: ${JSON.stringify(result.usage)}`);
  log(
    `cost: $${result.cost?.total.toFixed(6) ?? '?'} (input $${result.cost?.input.toFixed(6) ?? '?'}, output $${result.cost?.output.toFixed(6) ?? '?'})`,
  );
  await tracerProvider.shutdown();
  await meterProvider.shutdown();
  context.disable();
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  });
}
