import type { Context, Span } from '@opentelemetry/api';
import { context, SpanKind, trace } from '@opentelemetry/api';
import type { CompactionEvent } from '../core/engine/events';
import { ATTR, EVENT } from './semconv';
import type { OpenSpan, TraceSettings } from './trace-settings';

/**
 * A run's compactions as spans: `compaction {policy}` (INTERNAL, a child of the run span) around
 * the work of one policy — a summariser's `chat` call becomes its child — completed with what the
 * `compaction` event reports (positions, tokens before and after). A policy that proposed nothing
 * ends its span without them. A provider's compaction (`policy: 'provider'`) is a span event on the
 * run span: it happened inside the provider's call.
 */
export class CompactionSpans {
  private open: Span | undefined;

  constructor(
    private readonly settings: TraceSettings,
    private readonly run: OpenSpan,
  ) {}

  /** Runs one policy's work inside a new compaction span. */
  within<T>(turn: number, policy: string, call: () => Promise<T>): Promise<T> {
    this.endOpen();
    const span = this.settings.tracer.startSpan(
      `compaction ${policy}`,
      {
        kind: SpanKind.INTERNAL,
        attributes: { [ATTR.golemCompactionPolicy]: policy, [ATTR.golemTurn]: turn },
      },
      this.run.context,
    );
    this.open = span;
    const active: Context = trace.setSpan(this.run.context, span);
    return context.with(active, call).catch((error: unknown) => {
      span.recordException(error instanceof Error ? error : String(error));
      span.setAttribute(ATTR.errorType, error instanceof Error ? error.name : 'Error');
      this.endOpen();
      throw error;
    });
  }

  /** Completes the open span with the record, or records a provider's compaction. */
  observe(event: CompactionEvent): void {
    const c = event.compaction;
    const attributes = {
      [ATTR.golemCompactionPolicy]: c.policy,
      [ATTR.golemCompactionFrom]: c.from,
      [ATTR.golemCompactionTo]: c.to,
      [ATTR.golemCompactionTokensBefore]: c.tokensBefore,
      [ATTR.golemCompactionTokensAfter]: c.tokensAfter,
      [ATTR.golemTurn]: event.turn,
    };
    if (c.policy === 'provider' || this.open === undefined) {
      this.run.span.addEvent(EVENT.compaction, attributes);
      return;
    }
    this.open.setAttributes(attributes);
    if (c.usage !== undefined) {
      this.open.setAttribute(ATTR.inputTokens, c.usage.inputTokens);
      this.open.setAttribute(ATTR.outputTokens, c.usage.outputTokens);
    }
    this.endOpen();
  }

  /** Ends the span of a policy that proposed nothing (called before the next model call and at the end). */
  endOpen(): void {
    this.open?.end();
    this.open = undefined;
  }
}
