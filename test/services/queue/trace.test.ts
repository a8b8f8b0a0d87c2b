/**
 * Trace context crosses the queue: the enqueuing request's span context travels in the job
 * (`traceContext: injectTraceContext` from golem/otel) and the worker continues it
 * (`continueTrace: withTraceContext`), so the run's `invoke_agent` span is a child of the request's
 * span although it ran in another worker.
 */
import { Agent } from 'golem';
import { injectTraceContext, otelInstrumentation, withTraceContext } from 'golem/otel';
import { FunctionModel, textResponse } from 'golem/testing';
import { otelHarness, type OtelHarness } from '../../otel/harness';
import type { Harness } from './harness';
import { harness } from './harness';
import { rawQueue } from './raw';

jest.setTimeout(30_000);

let h: Harness;
let otel: OtelHarness;
afterEach(async () => {
  await h.close();
  await otel.shutdown();
});

test('the worker’s run continues the trace of the request that enqueued it', async () => {
  otel = otelHarness();
  h = await harness({ traceContext: () => injectTraceContext() });
  const agent = new Agent({
    model: new FunctionModel(() => textResponse('ok')),
    name: 'traced',
    instrumentation: otelInstrumentation({ tracerProvider: otel.tracerProvider, metrics: false }),
  });
  await h.worker({ agents: [agent], continueTrace: withTraceContext });
  const tracer = otel.tracerProvider.getTracer('http');
  const { runId, jobId, request } = await tracer.startActiveSpan('POST /runs', async (span) => {
    try {
      const run = await h.queue.enqueue('traced', 'hi');
      return { ...run, request: span.spanContext() };
    } finally {
      span.end();
    }
  });
  await h.queue.result(runId);
  const raw = rawQueue(h.prefix);
  const job = await raw.queue.getJob(jobId);
  await raw.close();
  expect((job?.data as { traceContext?: Record<string, string> }).traceContext).toEqual({
    traceparent: `00-${request.traceId}-${request.spanId}-01`,
  });
  const invoke = otel.spans().find((s) => s.name === 'invoke_agent traced');
  expect(invoke?.spanContext().traceId).toBe(request.traceId);
  expect(invoke?.parentSpanContext?.spanId).toBe(request.spanId);
});
