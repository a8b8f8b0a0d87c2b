/**
 * `golem/otel`: OpenTelemetry tracing and metrics for agent runs, following the GenAI semantic
 * conventions (`invoke_agent`, `chat` and `execute_tool` spans; the `gen_ai.client.token.usage`
 * and `gen_ai.client.operation.duration` histograms), plus trace-context propagation for queued
 * runs. Needs the optional peer `@opentelemetry/api` (checked first: a `ConfigError` of reason
 * `missing-peer` names the `npm install` command); bring your own SDK and exporter.
 * @packageDocumentation
 */
import './peers';

export { otelInstrumentation } from './instrumentation';
export type { OtelInstrumentationOptions, ContentCaptureOptions } from './instrumentation';
export { injectTraceContext, extractTraceContext, withTraceContext } from './propagation';
export type { TraceCarrier } from './propagation';
export { ATTR, EVENT, METRIC, SCOPE } from './semconv';
export { evalTracing, EVAL_ATTR } from './eval-tracing';
export type { EvalTracingOptions } from './eval-tracing';
