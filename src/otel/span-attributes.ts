import type { Attributes, Span } from '@opentelemetry/api';
import { SpanStatusCode } from '@opentelemetry/api';
import type { Cost } from '../core/contract/cost';
import { describeError } from '../core/kit/error-base';
import type { ModelSettings } from '../core/contract/request';
import type { Usage } from '../core/contract/usage';
import { errorType } from './error-type';
import { scrubSecrets as scrub } from '../core/kit/scrub-secrets';
import { ATTR } from './semconv';

/**
 * The convention's `gen_ai.request.*` attributes of a request's settings (unset ones omitted),
 * added to `out` (default a new object), which is returned.
 */
export function requestAttributes(
  settings: ModelSettings | undefined,
  out: Attributes = {},
): Attributes {
  if (settings === undefined) return out;
  setNumber(out, ATTR.requestTemperature, settings.temperature);
  setNumber(out, ATTR.requestTopP, settings.topP);
  if (typeof settings.maxTokens === 'number' && settings.maxTokens > 0)
    setNumber(out, ATTR.requestMaxTokens, settings.maxTokens);
  setNumber(out, ATTR.requestSeed, settings.seed);
  setNumber(out, ATTR.requestPresencePenalty, settings.presencePenalty);
  setNumber(out, ATTR.requestFrequencyPenalty, settings.frequencyPenalty);
  const stop = settings.stop;
  if (Array.isArray(stop) && stop.length > 0 && stop.every((s) => typeof s === 'string'))
    out[ATTR.requestStopSequences] = [...stop];
  return out;
}

function setNumber(out: Attributes, key: string, value: unknown): void {
  if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
}

/**
 * The convention's `gen_ai.usage.*` attributes (detail counters only when reported), and golem's
 * `golem.usage.cached_responses` (calls a response cache answered), added to `out`.
 */
export function usageAttributes(usage: Usage, out: Attributes = {}): Attributes {
  out[ATTR.inputTokens] = usage.inputTokens;
  out[ATTR.outputTokens] = usage.outputTokens;
  if (usage.cacheReadTokens !== undefined) out[ATTR.cacheReadTokens] = usage.cacheReadTokens;
  if (usage.cacheWriteTokens !== undefined) out[ATTR.cacheWriteTokens] = usage.cacheWriteTokens;
  if (usage.reasoningTokens !== undefined) out[ATTR.reasoningTokens] = usage.reasoningTokens;
  if (usage.cachedResponses !== undefined) out[ATTR.golemCachedResponses] = usage.cachedResponses;
  return out;
}

/** golem's `golem.cost.*` attributes of a cost, added to `out`. */
export function costAttributes(cost: Cost, out: Attributes = {}): Attributes {
  out[ATTR.golemCost] = cost.total;
  out[ATTR.golemCostInput] = cost.input;
  out[ATTR.golemCostOutput] = cost.output;
  out[ATTR.golemCostCurrency] = cost.currency;
  return out;
}

const MAX_STATUS = 1024;
const MAX_STACK = 4096;

/**
 * Marks `span` failed per the convention's "recording errors": status `ERROR` with the scrubbed
 * message, `error.type`, and an exception event (type, scrubbed message and stack).
 */
export function recordFailure(span: Span, error: unknown, secrets: readonly string[]): string {
  const type = errorType(error);
  const message = scrub(describeError(error), secrets).slice(0, MAX_STATUS);
  span.setAttribute(ATTR.errorType, type);
  span.setStatus({ code: SpanStatusCode.ERROR, message });
  const stack = error instanceof Error && typeof error.stack === 'string' ? error.stack : undefined;
  span.recordException({
    name: error instanceof Error ? error.name : type,
    message,
    ...(stack !== undefined && { stack: scrub(stack, secrets).slice(0, MAX_STACK) }),
  });
  return type;
}
