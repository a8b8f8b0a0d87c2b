import type {
  SpanSummary,
  StudioCost,
  StudioGuardrailVerdict,
  StudioTurn,
  StudioUsage,
} from './api-types';

/** The attribute naming a golem run on its root span (src/otel/semconv.ts `golem.run.id`). */
const RUN_ID = 'golem.run.id';

/**
 * The spans the studio's OTLP endpoint received: a ring of at most `max`, indexed by trace id and
 * by the `golem.run.id` attribute (a run's spans are the traces holding a span naming it).
 */
export class SpanStore {
  private readonly ring: SpanSummary[] = [];
  private readonly byTrace = new Map<string, SpanSummary[]>();
  private readonly runTraces = new Map<string, Set<string>>();
  private readonly keys = new Set<string>();

  constructor(private readonly max: number) {}

  /** Keeps `spans` (a span already kept, by trace and span id, is skipped), dropping the oldest beyond the cap. */
  add(spans: readonly SpanSummary[]): void {
    for (const span of spans) {
      const key = `${span.traceId}:${span.spanId}`;
      if (this.keys.has(key)) continue; // an exporter's retry
      this.keys.add(key);
      this.ring.push(span);
      const list = this.byTrace.get(span.traceId);
      if (list === undefined) this.byTrace.set(span.traceId, [span]);
      else list.push(span);
      const runId = span.attributes[RUN_ID];
      if (typeof runId === 'string') {
        const traces = this.runTraces.get(runId) ?? new Set<string>();
        traces.add(span.traceId);
        this.runTraces.set(runId, traces);
      }
    }
    while (this.ring.length > this.max) this.evict(this.ring.shift() as SpanSummary);
  }

  private evict(span: SpanSummary): void {
    this.keys.delete(`${span.traceId}:${span.spanId}`);
    const list = this.byTrace.get(span.traceId);
    if (list === undefined) return;
    const at = list.indexOf(span);
    if (at !== -1) list.splice(at, 1);
    if (list.length > 0) return;
    this.byTrace.delete(span.traceId);
    for (const [runId, traces] of this.runTraces) {
      traces.delete(span.traceId);
      if (traces.size === 0) this.runTraces.delete(runId);
    }
  }

  /** How many spans are kept. */
  get size(): number {
    return this.ring.length;
  }

  /**
   * What run `runId` cost: the sum of the `golem.cost.total` of its traces' `chat` spans (each
   * model response priced once), or, when none carries one, its run span's; `undefined` when its
   * spans carry no price (it was not priced, or not traced here).
   */
  costOfRun(runId: string): StudioCost | undefined {
    const traces = this.runTraces.get(runId);
    if (traces === undefined) return undefined;
    const chats: SpanSummary[] = [];
    let root: StudioCost | undefined;
    for (const traceId of traces) {
      for (const span of this.byTrace.get(traceId) ?? []) {
        if (span.name.startsWith('chat')) chats.push(span);
        else if (span.attributes[RUN_ID] === runId) root ??= costOf(span);
      }
    }
    return sumCosts(chats) ?? root;
  }

  /** The spans of run `runId`, by start time. */
  ofRun(runId: string): SpanSummary[] {
    const spans: SpanSummary[] = [];
    for (const traceId of this.runTraces.get(runId) ?? [])
      spans.push(...(this.byTrace.get(traceId) ?? []));
    return spans.sort((a, b) => a.startMs - b.startMs);
  }
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The `golem.cost.*` price a span carries, if any. */
export function costOf(span: SpanSummary): StudioCost | undefined {
  const total = count(span.attributes['golem.cost.total']);
  const currency = span.attributes['golem.cost.currency'];
  if (total === undefined || typeof currency !== 'string' || currency === '') return undefined;
  return { total, currency };
}

/** The summed price of `spans` (in the first priced span's currency; others are left out). */
function sumCosts(spans: readonly SpanSummary[]): StudioCost | undefined {
  let sum: StudioCost | undefined;
  for (const span of spans) {
    const cost = costOf(span);
    if (cost === undefined) continue;
    if (sum === undefined) sum = cost;
    else if (cost.currency === sum.currency)
      sum = { total: sum.total + cost.total, currency: sum.currency };
  }
  return sum;
}

function usageOf(span: SpanSummary): StudioUsage | undefined {
  const input = count(span.attributes['gen_ai.usage.input_tokens']);
  const output = count(span.attributes['gen_ai.usage.output_tokens']);
  if (input === undefined && output === undefined) return undefined;
  const cache = count(span.attributes['gen_ai.usage.cache_read.input_tokens']);
  const reasoning = count(span.attributes['gen_ai.usage.reasoning.output_tokens']);
  return {
    inputTokens: input ?? 0,
    outputTokens: output ?? 0,
    ...(cache !== undefined && { cacheReadTokens: cache }),
    ...(reasoning !== undefined && { reasoningTokens: reasoning }),
  };
}

/**
 * `turns` with each turn's usage, attempts and timing from the run's `chat` spans: the spans, by
 * start time, group into model turns (an attempt of 1, or no attempt number, starts a group);
 * the n-th group describes the n-th turn (its usage: the last attempt's; its cost: every priced
 * attempt's). Turns without a group
 * stay as they are.
 */
export function withSpanFacts(
  turns: readonly StudioTurn[],
  spans: readonly SpanSummary[],
): StudioTurn[] {
  const groups: SpanSummary[][] = [];
  for (const span of spans) {
    if (!span.name.startsWith('chat')) continue;
    const attempt = span.attributes['golem.attempt'];
    const last = groups[groups.length - 1];
    if (last === undefined || typeof attempt !== 'number' || attempt <= 1) groups.push([span]);
    else last.push(span);
  }
  return turns.map((turn, i) => {
    const group = groups[i];
    if (group === undefined) return turn;
    const first = group[0] as SpanSummary;
    const final = group[group.length - 1] as SpanSummary;
    const usage = usageOf(final);
    const cost = sumCosts(group);
    return {
      ...turn,
      ...(usage !== undefined && { usage }),
      ...(cost !== undefined && { cost }),
      attempts: group.length,
      durationMs: final.startMs + final.durationMs - first.startMs,
    };
  });
}

/** The guardrail decisions recorded on `spans` (their `golem.guardrail` events), by time. */
export function guardrailVerdicts(spans: readonly SpanSummary[]): StudioGuardrailVerdict[] {
  const verdicts: StudioGuardrailVerdict[] = [];
  for (const span of spans) {
    for (const event of span.events ?? []) {
      if (event.name !== 'golem.guardrail') continue;
      const text = (key: string): string | undefined => {
        const value = event.attributes[key];
        return typeof value === 'string' ? value : undefined;
      };
      const name = text('golem.guardrail.name');
      const outcome = text('golem.guardrail.outcome');
      if (name === undefined || outcome === undefined) continue; // not a decision golem recorded
      const toolName = text('gen_ai.tool.name');
      const callId = text('gen_ai.tool.call.id');
      const reason = text('golem.guardrail.reason');
      verdicts.push({
        name,
        phase: text('golem.guardrail.phase') ?? '',
        outcome,
        ...(reason !== undefined && { reason }),
        ...(toolName !== undefined && { toolName }),
        ...(callId !== undefined && { callId }),
        timeMs: event.timeMs,
      });
    }
  }
  return verdicts.sort((a, b) => a.timeMs - b.timeMs);
}
