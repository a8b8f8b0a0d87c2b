import { isRecord } from '../core/kit/guards';
import type { SpanEvent, SpanSummary } from './api-types';

type AttributeValue = string | number | boolean;

/** An OTLP/JSON `AnyValue` as a plain value (strings, numbers, booleans; others skipped). */
function anyValue(value: unknown): AttributeValue | undefined {
  if (!isRecord(value)) return undefined;
  if (typeof value.stringValue === 'string') return value.stringValue;
  if (typeof value.boolValue === 'boolean') return value.boolValue;
  if (typeof value.doubleValue === 'number') return value.doubleValue;
  const int = value.intValue;
  if (typeof int === 'number') return int;
  if (typeof int === 'string' && /^-?\d+$/.test(int)) return Number(int);
  return undefined;
}

/** OTLP/JSON `attributes` (`[{ key, value }]`) as a record. */
function attributesOf(list: unknown): Record<string, AttributeValue> {
  const out: Record<string, AttributeValue> = {};
  if (!Array.isArray(list)) return out;
  for (const entry of list) {
    if (!isRecord(entry) || typeof entry.key !== 'string') continue;
    const value = anyValue(entry.value);
    if (value !== undefined) out[entry.key] = value;
  }
  return out;
}

/** A nanosecond timestamp (a decimal string or a number) in epoch ms, or undefined. */
function nanosToMs(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value / 1e6;
  if (typeof value !== 'string' || !/^\d+$/.test(value)) return undefined;
  const nanos = BigInt(value);
  return Number(nanos / 1000n) / 1000;
}

function statusOf(status: unknown): SpanSummary['status'] {
  if (!isRecord(status)) return 'unset';
  const code = status.code;
  if (code === 2 || code === 'STATUS_CODE_ERROR') return 'error';
  if (code === 1 || code === 'STATUS_CODE_OK') return 'ok';
  return 'unset';
}

const HEX_ID = /^[0-9a-fA-F]{8,32}$/;

/** One OTLP/JSON span as a {@link SpanSummary}, or undefined when it lacks ids or times. */
function spanOf(span: unknown): SpanSummary | undefined {
  if (!isRecord(span)) return undefined;
  const { traceId, spanId, parentSpanId, name } = span;
  if (typeof traceId !== 'string' || !HEX_ID.test(traceId)) return undefined;
  if (typeof spanId !== 'string' || !HEX_ID.test(spanId)) return undefined;
  const start = nanosToMs(span.startTimeUnixNano);
  const end = nanosToMs(span.endTimeUnixNano);
  if (start === undefined) return undefined;
  return {
    traceId: traceId.toLowerCase(),
    spanId: spanId.toLowerCase(),
    ...(typeof parentSpanId === 'string' &&
      HEX_ID.test(parentSpanId) && { parentSpanId: parentSpanId.toLowerCase() }),
    name: typeof name === 'string' ? name : '',
    startMs: start,
    durationMs: end === undefined ? 0 : Math.max(0, end - start),
    status: statusOf(span.status),
    attributes: attributesOf(span.attributes),
    ...(Array.isArray(span.events) && span.events.length > 0 && { events: eventsOf(span.events) }),
  };
}

/** A span's OTLP/JSON `events` (`[{ name, timeUnixNano, attributes }]`); malformed ones skipped. */
function eventsOf(list: readonly unknown[]): SpanEvent[] {
  const events: SpanEvent[] = [];
  for (const event of list.slice(0, MAX_EVENTS)) {
    if (!isRecord(event) || typeof event.name !== 'string') continue;
    const timeMs = nanosToMs(event.timeUnixNano);
    if (timeMs === undefined) continue;
    events.push({ name: event.name, timeMs, attributes: attributesOf(event.attributes) });
  }
  return events;
}

/** The most events kept per span. */
const MAX_EVENTS = 128;

/**
 * The spans of an OTLP/HTTP JSON export body (`ExportTraceServiceRequest`: resourceSpans →
 * scopeSpans → spans, hex ids, nanosecond times as decimal strings, attributes as
 * `{ key, value: { stringValue | intValue | doubleValue | boolValue } }`). Malformed spans are
 * skipped; returns undefined when the body is not such a request at all.
 */
export function otlpSpans(body: unknown): SpanSummary[] | undefined {
  if (!isRecord(body)) return undefined;
  const resources = body.resourceSpans;
  if (resources === undefined) return [];
  if (!Array.isArray(resources)) return undefined;
  const spans: SpanSummary[] = [];
  for (const resource of resources) {
    if (!isRecord(resource) || !Array.isArray(resource.scopeSpans)) continue;
    for (const scope of resource.scopeSpans) {
      if (!isRecord(scope) || !Array.isArray(scope.spans)) continue;
      for (const raw of scope.spans) {
        const span = spanOf(raw);
        if (span !== undefined) spans.push(span);
      }
    }
  }
  return spans;
}
