import type { RunRecord, StoredRun } from '../core/index';
import { isRecord } from '../core/kit/guards';
import type { RunSummary, StudioCost, StudioRunStatus, StudioUsage } from './api-types';

const STATUSES: readonly string[] = ['running', 'paused', 'completed', 'failed'];

function parsed(text: string | null | undefined): unknown {
  if (typeof text !== 'string') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

function tokens(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : 0;
}

/** A stored row's usage JSON as {@link StudioUsage} (zeros when unreadable). */
export function usageOfRow(text: string): StudioUsage {
  const value = parsed(text);
  if (!isRecord(value)) return { inputTokens: 0, outputTokens: 0 };
  return {
    inputTokens: tokens(value.inputTokens),
    outputTokens: tokens(value.outputTokens),
    ...(typeof value.cacheReadTokens === 'number' && {
      cacheReadTokens: tokens(value.cacheReadTokens),
    }),
    ...(typeof value.reasoningTokens === 'number' && {
      reasoningTokens: tokens(value.reasoningTokens),
    }),
  };
}

function pendingCount(text: string | null): number {
  const value = parsed(text);
  if (!isRecord(value)) return 0;
  const size = (list: unknown): number => (Array.isArray(list) ? list.length : 0);
  return size(value.approvals) + size(value.external);
}

/**
 * A raw stored row as a {@link RunSummary}, reading only the small JSON fields (usage, pending),
 * never the messages. `now` decides whether the row's lease is held.
 */
export function summarizeRow(row: StoredRun, now: number, cost?: StudioCost): RunSummary {
  const status = (STATUSES.includes(row.status) ? row.status : 'failed') as StudioRunStatus;
  return {
    id: row.id,
    agent: row.agent,
    status,
    ...(typeof row.owner === 'string' && { owner: row.owner }),
    ...(typeof row.conversationId === 'string' && { conversationId: row.conversationId }),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    turns: row.turns,
    requests: row.requests,
    toolCalls: row.toolCalls,
    usage: usageOfRow(row.usage),
    pending: pendingCount(row.pending),
    ...(typeof row.errorStage === 'string' && {
      error: { stage: row.errorStage, message: row.errorMessage ?? '' },
    }),
    held:
      typeof row.leaseOwner === 'string' &&
      typeof row.leaseExpiresAt === 'number' &&
      row.leaseExpiresAt > now,
    version: row.version,
    ...(cost !== undefined && { cost }),
  };
}

/** A decoded run as a {@link RunSummary} (`cost`: from its spans, when priced). */
export function summarizeRecord(record: RunRecord, now: number, cost?: StudioCost): RunSummary {
  const { usage } = record;
  return {
    id: record.id,
    agent: record.agent,
    status: record.status,
    ...(record.owner !== undefined && { owner: record.owner }),
    ...(record.conversationId !== undefined && { conversationId: record.conversationId }),
    createdAt: record.createdAt,
    updatedAt: record.updatedAt,
    turns: record.turns,
    requests: record.requests,
    toolCalls: record.toolCalls,
    usage: {
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      ...(usage.cacheReadTokens !== undefined && { cacheReadTokens: usage.cacheReadTokens }),
      ...(usage.reasoningTokens !== undefined && { reasoningTokens: usage.reasoningTokens }),
    },
    pending: (record.pending?.approvals.length ?? 0) + (record.pending?.external.length ?? 0),
    ...(record.error !== undefined && { error: record.error }),
    held: record.lease !== undefined && record.lease.expiresAt > now,
    version: record.version,
    ...(cost !== undefined && { cost }),
  };
}
