import type { Attributes, Span } from '@opentelemetry/api';
import type { GuardrailEvent, ToolResolvedEvent } from '../core/engine/events';
import { captureText } from './content';
import { ATTR, EVENT } from './semconv';
import type { TraceSettings } from './trace-settings';

/**
 * A `tool_resolved` event (on `resume`, a pending call denied or given an external result: the
 * tool does not run, so there is no `execute_tool` span) as a `golem.tool.resolved` span event on
 * the run's `invoke_agent` span (`span`): the call's `gen_ai.tool.name` and `gen_ai.tool.call.id`
 * and `golem.tool.resolution` (`denied` or `external`); with content capture on, the text the
 * model sees as `gen_ai.tool.call.result` (scrubbed and truncated).
 */
export function recordResolved(
  span: Span,
  event: ToolResolvedEvent,
  settings: TraceSettings,
): void {
  const attributes: Attributes = {
    [ATTR.toolName]: event.toolName,
    [ATTR.toolCallId]: event.callId,
    [ATTR.golemResolution]: event.resolution,
  };
  const content = settings.content;
  if (content !== undefined) attributes[ATTR.toolCallResult] = captureText(event.result, content);
  span.addEvent(EVENT.toolResolved, attributes);
}

/**
 * A `guardrail` event (one check and how it decided) as a `golem.guardrail` span event on `span`:
 * the call's `execute_tool` span for a tool phase, `invoke_agent` otherwise. Attributes: the
 * guardrail's `golem.guardrail.name`, `golem.guardrail.phase` and `golem.guardrail.outcome`
 * (`pass`, `rewrite`, `trip`, `retry`, `failed`); on tool phases the call's `gen_ai.tool.name`
 * and `gen_ai.tool.call.id`. The reason of a trip or a failure is content: recorded as
 * `golem.guardrail.reason` only with content capture on, scrubbed and truncated.
 */
export function recordGuardrail(span: Span, event: GuardrailEvent, settings: TraceSettings): void {
  const check = event.guardrail;
  const attributes: Attributes = {
    [ATTR.golemGuardrailName]: check.name,
    [ATTR.golemGuardrailPhase]: check.phase,
    [ATTR.golemGuardrailOutcome]: check.outcome,
  };
  if (event.callId !== undefined) {
    attributes[ATTR.toolName] = event.toolName;
    attributes[ATTR.toolCallId] = event.callId;
  }
  const content = settings.content;
  if (content !== undefined && typeof check.reason === 'string')
    attributes[ATTR.golemGuardrailReason] = captureText(check.reason, content);
  span.addEvent(EVENT.guardrail, attributes);
}
