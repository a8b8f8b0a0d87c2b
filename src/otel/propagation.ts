import type { Context } from '@opentelemetry/api';
import { context, propagation } from '@opentelemetry/api';
import { isRecord } from '../core/kit/guards';

/** A trace context as plain strings (W3C `traceparent`, `tracestate`, `baggage`), for a job or a message. */
export type TraceCarrier = Record<string, string>;

/**
 * The active trace context (or `ctx`) as a carrier to store with queued work, so the worker's
 * run continues the same trace (see {@link withTraceContext}). Uses the global propagator (the
 * Node SDK registers W3C trace context and baggage); with none registered the carrier is empty.
 */
export function injectTraceContext(ctx: Context = context.active()): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagation.inject(ctx, carrier);
  return carrier;
}

/**
 * The context a carrier from {@link injectTraceContext} describes, on top of the active one.
 * Untrusted input (a job payload): anything but string values is ignored.
 */
export function extractTraceContext(carrier: unknown): Context {
  const clean: TraceCarrier = {};
  if (isRecord(carrier))
    for (const [key, value] of Object.entries(carrier))
      if (typeof value === 'string' && value.length <= 8192) clean[key] = value;
  return propagation.extract(context.active(), clean);
}

/**
 * Runs `fn` inside the trace context of `carrier`: an agent run started in `fn` becomes a child
 * of the span that was active where the carrier was made.
 *
 * ```ts no-check
 * queue.add('run', { prompt, trace: injectTraceContext() });           // producer
 * await withTraceContext(job.data.trace, () => agent.run(job.data.prompt)); // worker
 * ```
 */
export function withTraceContext<T>(carrier: unknown, fn: () => T): T {
  return context.with(extractTraceContext(carrier), fn);
}
