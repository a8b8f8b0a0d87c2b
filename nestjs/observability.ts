import type { PriceTable, RunInstrumentation } from '../src/core/index';

/**
 * What `GolemModule.forRoot({ instrumentation, prices })` gives every agent `forFeature` builds:
 * the instrumentation that traces their runs (e.g. `otelInstrumentation()` from `golem/otel`)
 * and the price table that prices their responses. Provided by the root module (global).
 */
export class GolemObservability {
  /** @internal Built by `GolemModule.forRoot`. */
  constructor(
    /** Traces every run of every agent built by `forFeature`, when set. */
    readonly instrumentation: RunInstrumentation | undefined,
    /** Prices every response (`result.cost`, `usageLimit.cost`), when set. */
    readonly prices: PriceTable | undefined,
  ) {}
}
