import type { Attributes, Context, Span, Tracer } from '@opentelemetry/api';
import type { ContentLimits } from './content';
import type { GenAiInstruments } from './metrics';
import type { SpanBases } from './span-bases';

/** What every run trace of one instrumentation shares. */
export interface TraceSettings {
  readonly tracer: Tracer;
  /** The metric instruments, or `undefined` when metrics are off (or no SDK is registered). */
  readonly instruments: GenAiInstruments | undefined;
  /** Content capture limits, or `undefined` when content is not captured (the default). */
  readonly content: ContentLimits | undefined;
  readonly secrets: readonly string[];
  /** Attributes added to every span. */
  readonly attributes: Attributes;
  /** The spans' starting attributes, built once per agent, model and tool. */
  readonly bases: SpanBases;
}

/** A started span and the context in which it is the active span. */
export interface OpenSpan {
  readonly span: Span;
  readonly context: Context;
}
