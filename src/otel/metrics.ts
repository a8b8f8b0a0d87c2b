import type { Attributes, Histogram, Meter } from '@opentelemetry/api';
import type { Usage } from '../core/contract/usage';
import { ATTR, METRIC } from './semconv';
import type { ChatMetricAttributes } from './span-bases';

/** The convention's two client histograms on one meter. */
export interface GenAiInstruments {
  /** `gen_ai.client.token.usage` ({token}): one record per token type per model call. */
  readonly tokenUsage: Histogram;
  /** `gen_ai.client.operation.duration` (s): one record per chat, tool execution and agent run. */
  readonly duration: Histogram;
}

const byMeter = new WeakMap<Meter, GenAiInstruments>();

/** The instruments of `meter`, created once per meter with the convention's bucket boundaries. */
export function instrumentsOf(meter: Meter): GenAiInstruments {
  let instruments = byMeter.get(meter);
  if (instruments === undefined) {
    instruments = {
      tokenUsage: meter.createHistogram(METRIC.tokenUsage, {
        description: 'Number of input and output tokens used.',
        unit: '{token}',
        advice: { explicitBucketBoundaries: [...METRIC.tokenUsageBuckets] },
      }),
      duration: meter.createHistogram(METRIC.duration, {
        description: 'GenAI operation duration.',
        unit: 's',
        advice: { explicitBucketBoundaries: [...METRIC.durationBuckets] },
      }),
    };
    byMeter.set(meter, instruments);
  }
  return instruments;
}

/** Records one operation's duration in seconds (from `performance.now()` milliseconds). */
export function recordDuration(
  instruments: GenAiInstruments,
  startedMs: number,
  attributes: Attributes,
): void {
  instruments.duration.record((performance.now() - startedMs) / 1000, attributes);
}

/**
 * Records one model call attempt: its duration (with `error.type` when it failed) and, when it
 * succeeded with usage, its input and output tokens.
 */
export function recordChat(
  instruments: GenAiInstruments,
  attributes: ChatMetricAttributes,
  startedMs: number,
  failure: string | undefined,
  usage: Usage | undefined,
): void {
  if (failure !== undefined) {
    recordDuration(instruments, startedMs, { ...attributes.duration, [ATTR.errorType]: failure });
    return;
  }
  recordDuration(instruments, startedMs, attributes.duration);
  if (usage === undefined) return;
  instruments.tokenUsage.record(usage.inputTokens, attributes.input);
  instruments.tokenUsage.record(usage.outputTokens, attributes.output);
}
