import { encodeMessages, type RunRecord } from '../core/index';
import type { RunDetail, SpanSummary } from './api-types';
import { summarizeRecord } from './run-summary';
import { withSpanFacts } from './span-store';
import { checkpointsOf, deriveTimeline } from './timeline';

/** Failure stages a `resumeRun` may continue from (transient ones). */
const RESUMABLE_STAGES: ReadonlySet<string> = new Set(['model', 'tool', 'store']);

/** Whether `resumeRun` may continue `record` now: an unheld running run or a transiently failed one. */
export function canResume(record: RunRecord, now: number): boolean {
  if (record.status === 'running')
    return record.lease === undefined || record.lease.expiresAt <= now;
  return record.status === 'failed' && RESUMABLE_STAGES.has(record.error?.stage ?? '');
}

/** Everything the studio shows of a stored run (with its spans and whether an agent can act). */
export function runDetail(
  record: RunRecord,
  spans: readonly SpanSummary[],
  now: number,
  hasAgent: boolean,
): RunDetail {
  const timeline = withSpanFacts(
    deriveTimeline(record.messages, { pending: record.pending, inFlight: record.inFlight }),
    spans,
  );
  const pending = [
    ...(record.pending?.approvals ?? []).map((c) => ({ ...c, kind: 'approval' as const })),
    ...(record.pending?.external ?? []).map((c) => ({ ...c, kind: 'external' as const })),
  ];
  return {
    summary: summarizeRecord(record, now),
    messages: JSON.parse(encodeMessages(record.messages)) as unknown[],
    timeline,
    pending,
    inFlight: record.inFlight,
    checkpoints: checkpointsOf(timeline),
    spans,
    ...(record.output !== undefined && { output: record.output }),
    actions: {
      decide: hasAgent && record.status === 'paused',
      resume: hasAgent && canResume(record, now),
      replay: hasAgent,
      cancel: false,
    },
  };
}
