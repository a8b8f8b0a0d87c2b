import type { Attributes, Span } from '@opentelemetry/api';
import { RunError } from '../core/engine/errors';
import type { RunOutcome } from '../core/engine/instrumentation';
import type { Cost } from '../core/contract/cost';
import type { Message } from '../core/contract/message';
import type { Usage } from '../core/contract/usage';
import { captureOutput } from './content';
import { ATTR, EVENT } from './semconv';
import { costAttributes, recordFailure, usageAttributes } from './span-attributes';
import type { TraceSettings } from './trace-settings';

/** What a run's model calls added up to, for its `invoke_agent` span. */
export interface RunSummary {
  usage: Usage | undefined;
  cost: Cost | undefined;
  responseModel: string | undefined;
  lastAnswer: { message: Message; finishReason: string | undefined } | undefined;
}

/**
 * The end-of-run attributes of `invoke_agent`: usage totals and the last response model; on
 * failure the error (status, `error.type`, `golem.run.stage`, exception event) and the cost so
 * far; on success the counts, the run id, the cost, and either the pause (pending calls) or the
 * final answer (content capture).
 */
export function finishRunSpan(
  span: Span,
  outcome: RunOutcome,
  summary: RunSummary,
  settings: TraceSettings,
): void {
  const attributes: Attributes = {};
  if (summary.usage !== undefined) usageAttributes(summary.usage, attributes);
  if (summary.responseModel !== undefined) attributes[ATTR.responseModel] = summary.responseModel;
  if (!outcome.ok) {
    if (RunError.is(outcome.error)) attributes[ATTR.golemStage] = outcome.error.stage;
    if (summary.cost !== undefined) costAttributes(summary.cost, attributes);
    span.setAttributes(attributes);
    recordFailure(span, outcome.error, settings.secrets);
    return;
  }
  const result = outcome.result;
  if (result === undefined) {
    span.setAttributes(attributes);
    return;
  }
  attributes[ATTR.golemRequests] = result.requests;
  attributes[ATTR.golemToolCalls] = result.toolCalls;
  if (result.runId !== undefined) attributes[ATTR.golemRunId] = result.runId;
  if (result.cost !== undefined) {
    costAttributes(result.cost, attributes);
    if (result.cost.unpriced > 0) attributes[ATTR.golemUnpriced] = result.cost.unpriced;
  }
  if (result.pending !== undefined) {
    const count = result.pending.approvals.length + result.pending.external.length;
    attributes[ATTR.golemPending] = count;
    span.addEvent(EVENT.paused, {
      'golem.pending.approvals': result.pending.approvals.map((p) => p.callId),
      'golem.pending.external': result.pending.external.map((p) => p.callId),
    });
  } else if (settings.content !== undefined && summary.lastAnswer !== undefined) {
    const { message, finishReason } = summary.lastAnswer;
    attributes[ATTR.outputMessages] = captureOutput(message, finishReason, settings.content);
  }
  span.setAttributes(attributes);
}
