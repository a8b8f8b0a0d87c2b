import type { Attributes, Context } from '@opentelemetry/api';
import { SpanKind, trace } from '@opentelemetry/api';
import type { DeferredEvent, ToolEndEvent, ToolStartEvent } from '../core/engine/events';
import type { ToolSpec } from '../core/contract/request';
import { captureText } from './content';
import { ATTR, EVENT } from './semconv';
import { recordFailure } from './span-attributes';
import type { OpenSpan, TraceSettings } from './trace-settings';

/** The `execute_tool {tool}` spans of one run, by call id, children of the run's span. */
export class ToolSpans {
  private readonly open = new Map<string, OpenSpan>();

  constructor(
    private readonly settings: TraceSettings,
    private readonly run: OpenSpan,
    private readonly specs: readonly ToolSpec[],
  ) {}

  /** The context of the call's span, while it is open. */
  contextOf(callId: string): Context | undefined {
    return this.open.get(callId)?.context;
  }

  /** `tool_start`: opens the call's span (arguments captured when content capture is on). */
  start(event: ToolStartEvent): void {
    const name = event.toolName;
    const attributes: Attributes = { ...this.settings.bases.tool(this.specs, name) };
    attributes[ATTR.toolCallId] = event.callId;
    attributes[ATTR.golemTurn] = event.turn;
    const content = this.settings.content;
    if (content !== undefined)
      attributes[ATTR.toolCallArguments] = captureText(event.args, content);
    const span = this.settings.tracer.startSpan(
      `execute_tool ${name}`,
      { kind: SpanKind.INTERNAL, attributes },
      this.run.context,
    );
    this.open.set(event.callId, { span, context: trace.setSpan(this.run.context, span) });
  }

  /** `tool_end` or `deferred`: the result, the failure or the deferral, then the end. */
  end(event: ToolEndEvent | DeferredEvent): void {
    const open = this.open.get(event.callId);
    if (open === undefined) return;
    this.open.delete(event.callId);
    const { span } = open;
    if (event.kind === 'deferred') {
      span.setAttribute(ATTR.golemDeferred, true);
      span.addEvent(EVENT.deferred);
    } else if (typeof event.result !== 'string')
      recordFailure(span, event.error, this.settings.secrets);
    else if (this.settings.content !== undefined)
      span.setAttribute(ATTR.toolCallResult, captureText(event.result, this.settings.content));
    span.end();
  }

  /** Ends whatever is still open (a run that ended mid-batch). */
  endAll(): void {
    for (const open of this.open.values()) open.span.end();
    this.open.clear();
  }
}
