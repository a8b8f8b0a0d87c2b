import type { PriceTable } from '../contract/cost';
import { isRecord } from '../kit/guards';
import type { AgentConfig } from './config';
import { agentConfigError } from '../engine/errors';
import type { RunInstrumentation, TraceHandle } from '../engine/instrumentation';
import { startTrace } from '../engine/instrumentation';
import type { EngineConfig } from '../engine/run-config';

/** The observability options of an agent, validated. Internal. */
export interface ObservabilityConfig {
  readonly instrumentation: RunInstrumentation | undefined;
  readonly prices: PriceTable | undefined;
}

/**
 * Validates `instrumentation`, `prices` and the usage bounds that need them
 * (`usageLimit.reasoningTokens`, `usageLimit.cost`), throwing `ConfigError` naming the fix.
 */
export function resolveObservability(
  config: Pick<AgentConfig<unknown, unknown>, 'instrumentation' | 'prices' | 'usageLimit'>,
): ObservabilityConfig {
  const { instrumentation, prices, usageLimit } = config;
  if (
    instrumentation !== undefined &&
    !(isRecord(instrumentation) && typeof instrumentation.startRun === 'function')
  )
    throw agentConfigError(
      'Agent `instrumentation` must have startRun(info), e.g. otelInstrumentation() from golem/otel',
    );
  if (prices !== undefined && !(isRecord(prices) && typeof prices.cost === 'function'))
    throw agentConfigError(
      'Agent `prices` must be a PriceTable with cost(usage, model), e.g. priceTable({ ... }) or genaiPrices() from golem/prices',
    );
  for (const field of ['reasoningTokens', 'cost'] as const) {
    const value = usageLimit?.[field];
    if (value === undefined) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw agentConfigError(
        `Agent \`usageLimit.${field}\` must be a number >= 0 (0 = off), got ${String(value)}`,
      );
  }
  if (usageLimit?.cost !== undefined && usageLimit.cost > 0 && prices === undefined)
    throw agentConfigError(
      'Agent `usageLimit.cost` needs `prices` to know what responses cost: pass priceTable({ ... }) or genaiPrices() from golem/prices',
    );
  return { instrumentation, prices };
}

/** What a run tells its trace starter. Internal. */
export interface TraceStart {
  readonly stream: boolean;
  readonly conversation: string | undefined;
  readonly runId: string | undefined;
}

/** Starts one run's trace. Internal. */
export type TraceStarter = (run: TraceStart) => TraceHandle | undefined;

/** The trace starter of an agent, or `undefined` when it has no instrumentation. Internal. */
export function traceStarter<Deps>(
  instrumentation: RunInstrumentation | undefined,
  agent: string,
  engine: EngineConfig<Deps>,
): TraceStarter | undefined {
  if (instrumentation === undefined) return undefined;
  const outputType = engine.outputSchema !== undefined || engine.outputTool !== undefined;
  return (run) =>
    startTrace(instrumentation, {
      agent,
      model: engine.model,
      stream: run.stream,
      tools: engine.specs,
      outputType: outputType ? 'json' : 'text',
      ...(run.conversation !== undefined && { conversation: run.conversation }),
      ...(run.runId !== undefined && { runId: run.runId }),
    });
}
