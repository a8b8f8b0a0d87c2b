import { encodeMessages, type RunRecord } from '../core/index';
import type { RunDetail, SpanSummary, StudioCost, StudioQueueState } from './api-types';
import { summarizeRecord } from './run-summary';
import { guardrailVerdicts, withSpanFacts } from './span-store';
import { cancellable } from './studio-queue';
import { checkpointsOf, deriveTimeline } from './timeline';

/** Failure stages a `resumeRun` may continue from (transient ones). */
const RESUMABLE_STAGES: ReadonlySet<string> = new Set(['model', 'tool', 'store']);

/** Whether `resumeRun` may continue `record` now: an unheld running run or a transiently failed one. */
export function canResume(record: RunRecord, now: number): boolean {
  if (record.status === 'running')
    return record.lease === undefined || record.lease.expiresAt <= now;
  return record.status === 'failed' && RESUMABLE_STAGES.has(record.error?.stage ?? '');
}

/** What a run's detail adds to its record: its spans, price, and what the studio can do with it. */
export interface DetailFacts {
  /** The run's spans (from the studio's OTLP endpoint). */
  readonly spans: readonly SpanSummary[];
  /** What the run cost, when its spans carry a price. */
  readonly cost?: StudioCost;
  /** Epoch ms (whether a lease is held). */
  readonly now: number;
  /** Whether the run's agent is registered with the studio (replays; without a queue, every action). */
  readonly hasAgent: boolean;
  /** Whether the studio has a run queue (decisions and resumes go to its workers). */
  readonly hasQueue: boolean;
  /** Where the run is on the queue, when the queue knows it. */
  readonly queue?: StudioQueueState;
}

/** Everything the studio shows of a stored run, with the facts it adds (see {@link DetailFacts}). */
export function runDetail(record: RunRecord, facts: DetailFacts): RunDetail {
  const { spans, now, hasAgent, hasQueue, queue } = facts;
  const timeline = withSpanFacts(
    deriveTimeline(record.messages, { pending: record.pending, inFlight: record.inFlight }),
    spans,
  );
  const pending = [
    ...(record.pending?.approvals ?? []).map((c) => ({ ...c, kind: 'approval' as const })),
    ...(record.pending?.external ?? []).map((c) => ({ ...c, kind: 'external' as const })),
  ];
  // With a queue, its workers run decisions and resumes: no agent of the studio's is needed.
  const canAct = hasQueue || hasAgent;
  return {
    summary: summarizeRecord(record, now, facts.cost),
    messages: JSON.parse(encodeMessages(record.messages)) as unknown[],
    timeline,
    pending,
    inFlight: record.inFlight,
    checkpoints: checkpointsOf(timeline),
    spans,
    guardrails: guardrailVerdicts(spans),
    ...(record.output !== undefined && { output: record.output }),
    ...(queue !== undefined && { queue }),
    actions: {
      decide: canAct && record.status === 'paused',
      // A cancelled run stays ended (the queue would refuse to run it again).
      resume: canAct && canResume(record, now) && queue?.state !== 'cancelled',
      replay: hasAgent,
      cancel: hasQueue && cancellable(queue),
    },
  };
}
