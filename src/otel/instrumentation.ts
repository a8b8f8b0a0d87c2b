import type { Attributes, MeterProvider, Tracer, TracerProvider } from '@opentelemetry/api';
import { context, createNoopMeter, metrics, ProxyTracerProvider, trace } from '@opentelemetry/api';
import type { RunInstrumentation, RunStartInfo, RunTrace } from '../core/engine/instrumentation';
import { isRecord } from '../core/kit/guards';
import { otelConfigError } from './config-error';
import type { ContentLimits } from './content';
import { type GenAiInstruments, instrumentsOf } from './metrics';
import { OtelRunTrace, type TraceSettings } from './run-trace';
import { SpanBases } from './span-bases';
import { SCOPE } from './semconv';

/** What content capture records and how much of it. */
export interface ContentCaptureOptions {
  /** Longest attribute value in characters (messages are JSON); default 16 384. */
  maxLength?: number;
}

/** Options of {@link otelInstrumentation}. */
export interface OtelInstrumentationOptions {
  /** Where spans go; default the global tracer provider (`trace.setGlobalTracerProvider`, the SDK's `register()`). */
  tracerProvider?: TracerProvider;
  /** Where metrics go; default the global meter provider. */
  meterProvider?: MeterProvider;
  /** Record the `gen_ai.client.*` histograms; default `true`. */
  metrics?: boolean;
  /**
   * Record message content (`gen_ai.input.messages`, `gen_ai.output.messages`,
   * `gen_ai.system_instructions`, tool arguments and results) — off by default: content is often
   * sensitive and large. `true` or limits turn it on; every captured string is truncated and
   * scrubbed of secrets.
   */
  captureContent?: boolean | ContentCaptureOptions;
  /**
   * Secrets to remove from everything recorded (error messages, content): API keys, tokens.
   * Well-known key shapes (`sk-…`, `AIza…`, AWS access key ids, bearer tokens) are always removed.
   */
  secrets?: readonly string[];
  /** Attributes added to every span (e.g. `{ 'deployment.environment.name': 'prod' }`). */
  attributes?: Attributes;
}

const DEFAULT_MAX_LENGTH = 16_384;

/**
 * OpenTelemetry instrumentation following the GenAI semantic conventions: give it to an agent
 * (`new Agent({ ..., instrumentation: otelInstrumentation() })`, `agentFromClass`, the container
 * or the Nest module) and every run becomes an `invoke_agent` span in the caller's trace, with a
 * `chat` span per provider attempt and an `execute_tool` span per tool execution, plus the
 * `gen_ai.client.token.usage` and `gen_ai.client.operation.duration` histograms. Uses the global
 * providers unless given others; with no SDK registered, runs are not traced at all (no cost).
 */
export function otelInstrumentation(options: OtelInstrumentationOptions = {}): RunInstrumentation {
  const resolved = resolve(options);
  const sharing = new SharedSettings(resolved);
  return {
    startRun(info: RunStartInfo): RunTrace | undefined {
      const tracerProvider = resolved.tracerProvider ?? trace.getTracerProvider();
      const instruments = resolved.metrics
        ? sharing.instruments(resolved.meterProvider ?? metrics.getMeterProvider())
        : undefined;
      // No SDK at all (the global proxy has no delegate) and no metrics: decline before building
      // anything.
      if (instruments === undefined && isUnset(tracerProvider)) return undefined;
      const settings = sharing.settings(tracerProvider, instruments);
      const run = new OtelRunTrace(info, settings, context.active());
      // Neither a recording span nor metrics: nothing would be recorded, so trace nothing.
      if (!run.recording && instruments === undefined) {
        run.end({ ok: true });
        return undefined;
      }
      return run;
    },
  };
}

/**
 * What the runs of one instrumentation share, built once rather than per run: the tracer of each
 * tracer provider, the instruments of each meter provider (none for the API's no-op meter), the
 * spans' starting attributes, and the {@link TraceSettings} of the current tracer and instruments.
 */
class SharedSettings {
  private readonly tracers = new WeakMap<TracerProvider, Tracer>();
  private readonly meters = new WeakMap<MeterProvider, GenAiInstruments | null>();
  private readonly bases: SpanBases;
  private last: TraceSettings | undefined;

  constructor(private readonly options: ResolvedOptions) {
    this.bases = new SpanBases(options.attributes);
  }

  instruments(provider: MeterProvider): GenAiInstruments | undefined {
    let instruments = this.meters.get(provider);
    if (instruments === undefined) {
      const meter = provider.getMeter(SCOPE);
      instruments = meter === createNoopMeter() ? null : instrumentsOf(meter);
      this.meters.set(provider, instruments);
    }
    return instruments ?? undefined;
  }

  settings(provider: TracerProvider, instruments: GenAiInstruments | undefined): TraceSettings {
    let tracer = this.tracers.get(provider);
    if (tracer === undefined) {
      tracer = provider.getTracer(SCOPE);
      this.tracers.set(provider, tracer);
    }
    const last = this.last;
    if (last?.tracer === tracer && last.instruments === instruments) return last;
    const { content, secrets, attributes } = this.options;
    const settings: TraceSettings = {
      tracer,
      instruments,
      content,
      secrets,
      attributes,
      bases: this.bases,
    };
    this.last = settings;
    return settings;
  }
}

// `ProxyTracerProvider` is deprecated for the API's next major; in 1.x (the peer range) it is the
// global provider, and its no-op delegate is how "no SDK registered" shows.
/* eslint-disable @typescript-eslint/no-deprecated */
/** The tracer provider of the API when no SDK registered one (the proxy's no-op delegate). */
const NOOP_TRACER_PROVIDER = new ProxyTracerProvider().getDelegate();

/** Whether `provider` is the global proxy with no SDK behind it. */
function isUnset(provider: TracerProvider): boolean {
  return provider instanceof ProxyTracerProvider && provider.getDelegate() === NOOP_TRACER_PROVIDER;
}
/* eslint-enable @typescript-eslint/no-deprecated */

interface ResolvedOptions {
  readonly tracerProvider: TracerProvider | undefined;
  readonly meterProvider: MeterProvider | undefined;
  readonly metrics: boolean;
  readonly content: ContentLimits | undefined;
  readonly secrets: readonly string[];
  readonly attributes: Attributes;
}

function resolve(options: OtelInstrumentationOptions): ResolvedOptions {
  const raw: unknown = options;
  if (!isRecord(raw)) throw otelConfigError('otelInstrumentation options must be an object');
  const { tracerProvider, meterProvider, captureContent, secrets = [], attributes = {} } = options;
  if (tracerProvider !== undefined && typeof tracerProvider.getTracer !== 'function')
    throw otelConfigError('`tracerProvider` must be an OpenTelemetry TracerProvider (getTracer)');
  if (meterProvider !== undefined && typeof meterProvider.getMeter !== 'function')
    throw otelConfigError('`meterProvider` must be an OpenTelemetry MeterProvider (getMeter)');
  if (options.metrics !== undefined && typeof options.metrics !== 'boolean')
    throw otelConfigError('`metrics` must be a boolean');
  const secretList: unknown = secrets;
  if (!Array.isArray(secretList) || secretList.some((s) => typeof s !== 'string'))
    throw otelConfigError('`secrets` must be an array of strings');
  const checked = secretList as string[];
  if (!isRecord(attributes))
    throw otelConfigError('`attributes` must be an object of span attributes');
  return {
    tracerProvider,
    meterProvider,
    metrics: options.metrics !== false,
    content: contentLimits(captureContent, checked),
    secrets: Object.freeze([...checked]),
    attributes: { ...attributes },
  };
}

function contentLimits(
  capture: OtelInstrumentationOptions['captureContent'],
  secrets: readonly string[],
): ContentLimits | undefined {
  if (capture === undefined || capture === false) return undefined;
  if (capture === true) return { maxLength: DEFAULT_MAX_LENGTH, secrets };
  if (!isRecord(capture))
    throw otelConfigError('`captureContent` must be a boolean or { maxLength }');
  const maxLength: unknown = capture.maxLength ?? DEFAULT_MAX_LENGTH;
  if (typeof maxLength !== 'number' || !Number.isInteger(maxLength) || maxLength < 64)
    throw otelConfigError(
      `\`captureContent.maxLength\` must be an integer >= 64 (characters), got ${JSON.stringify(maxLength)}`,
    );
  return { maxLength, secrets };
}
