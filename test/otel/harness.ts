import { context, metrics, propagation, trace } from '@opentelemetry/api';
import type { Attributes, AttributeValue } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
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

/** A metric reader that collects on demand (no timers). */
class ManualReader extends MetricReader {
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

/** The real OpenTelemetry SDK, in memory: spans, metrics, async-hooks context, W3C propagation. */
export interface OtelHarness {
  readonly exporter: InMemorySpanExporter;
  readonly tracerProvider: BasicTracerProvider;
  readonly meterProvider: MeterProvider;
  readonly reader: MetricReader;
  spans(): ReadableSpan[];
  shutdown(): Promise<void>;
}

/** Registers a context manager and propagator globally; providers are passed explicitly. */
export function otelHarness(): OtelHarness {
  const contextManager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const exporter = new InMemorySpanExporter();
  const tracerProvider = new BasicTracerProvider({
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const reader = new ManualReader();
  const meterProvider = new MeterProvider({ readers: [reader] });
  return {
    exporter,
    tracerProvider,
    meterProvider,
    reader,
    spans: () => exporter.getFinishedSpans(),
    async shutdown() {
      await tracerProvider.shutdown();
      await meterProvider.shutdown();
      context.disable();
      propagation.disable();
      trace.disable();
      metrics.disable();
    },
  };
}

/** The finished spans as an indented tree: `name [KIND]`, children in start order. */
export function spanTree(spans: readonly ReadableSpan[]): string {
  const ids = new Set(spans.map((s) => s.spanContext().spanId));
  const children = new Map<string | undefined, ReadableSpan[]>();
  for (const span of spans) {
    const parent = span.parentSpanContext?.spanId;
    const key = parent !== undefined && ids.has(parent) ? parent : undefined;
    const list = children.get(key) ?? [];
    list.push(span);
    children.set(key, list);
  }
  const order = (a: ReadableSpan, b: ReadableSpan): number =>
    a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1];
  const lines: string[] = [];
  const walk = (key: string | undefined, depth: number): void => {
    for (const span of [...(children.get(key) ?? [])].sort(order)) {
      lines.push(`${'  '.repeat(depth)}${span.name}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}

/** The spans named `name`, in start order. */
export function named(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans
    .filter((s) => s.name === name)
    .sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
}

/** Every string the spans carry: names, attribute values, status messages, event attributes. */
export function everyText(spans: readonly ReadableSpan[]): string {
  const texts: string[] = [];
  const add = (attributes: Attributes | undefined): void => {
    for (const value of Object.values(attributes ?? {})) texts.push(show(value));
  };
  for (const span of spans) {
    texts.push(span.name, span.status.message ?? '');
    add(span.attributes);
    for (const event of span.events) {
      texts.push(event.name);
      add(event.attributes);
    }
  }
  return texts.join('\n');
}

function show(value: AttributeValue | undefined): string {
  return Array.isArray(value) ? value.map(String).join(',') : String(value);
}

/** One histogram's points, by metric name, after collecting. */
export async function histogram(
  reader: MetricReader,
  name: string,
): Promise<DataPoint<Histogram>[]> {
  const { resourceMetrics } = await reader.collect();
  for (const scope of resourceMetrics.scopeMetrics)
    for (const metric of scope.metrics)
      if (metric.descriptor.name === name) return metric.dataPoints as DataPoint<Histogram>[];
  return [];
}
