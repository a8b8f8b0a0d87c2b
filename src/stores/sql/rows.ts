import type {
  StoredConversation,
  StoredRun,
  StoredWorkingMemory,
} from '../../core/durable/records';
import type { SqlRow } from './sql-client';

/** Columns of the runs table, in the order of {@link runParams}. Internal. */
export const RUN_COLUMNS = [
  'id',
  'agent',
  'conversation_id',
  'conversation_base',
  'status',
  'messages',
  'usage',
  'requests',
  'tool_calls',
  'turns',
  'pending',
  'in_flight',
  'error_stage',
  'error_message',
  'created_at',
  'updated_at',
  'lease_owner',
  'lease_expires_at',
  'version',
  'output',
  'owner',
  'conversation_length',
  'compactions',
] as const;

/** Columns of the conversations table, in the order of {@link conversationParams}. Internal. */
export const CONVERSATION_COLUMNS = [
  'id',
  'messages',
  'active_run_id',
  'version',
  'created_at',
  'updated_at',
  'owner',
  'title',
  'metadata',
  'compactions',
] as const;

/** The parameters of a run row, in {@link RUN_COLUMNS} order. */
export function runParams(run: StoredRun): unknown[] {
  return [
    run.id,
    run.agent,
    run.conversationId,
    run.conversationBase,
    run.status,
    run.messages,
    run.usage,
    run.requests,
    run.toolCalls,
    run.turns,
    run.pending,
    run.inFlight,
    run.errorStage,
    run.errorMessage,
    run.createdAt,
    run.updatedAt,
    run.leaseOwner,
    run.leaseExpiresAt,
    run.version,
    run.output ?? null,
    run.owner ?? null,
    run.conversationLength ?? null,
    run.compactions ?? null,
  ];
}

/** The parameters of a conversation row, in {@link CONVERSATION_COLUMNS} order. */
export function conversationParams(c: StoredConversation): unknown[] {
  return [
    c.id,
    c.messages,
    c.activeRunId,
    c.version,
    c.createdAt,
    c.updatedAt,
    c.owner ?? null,
    c.title ?? null,
    c.metadata ?? null,
    c.compactions ?? null,
  ];
}

/**
 * A driver's number (PostgreSQL returns BIGINT as text, SQLite may return a bigint) as a number;
 * anything else is kept, so decoding reports the column as corrupt instead of guessing.
 */
function num(value: unknown): number {
  if (typeof value === 'number') return value;
  if (typeof value === 'bigint') return Number(value);
  if (typeof value === 'string' && /^-?\d+$/.test(value)) return Number(value);
  return value as number;
}

function nullableNum(value: unknown): number | null {
  return value === null || value === undefined ? null : num(value);
}

function nullableText(value: unknown): string | null {
  return value === undefined ? null : (value as string | null);
}

/** A runs-table row as a {@link StoredRun} (types are checked when golem decodes it). */
export function toStoredRun(row: SqlRow): StoredRun {
  return {
    id: row.id as string,
    agent: row.agent as string,
    conversationId: nullableText(row.conversation_id),
    conversationBase: num(row.conversation_base),
    status: row.status as string,
    messages: row.messages as string,
    usage: row.usage as string,
    requests: num(row.requests),
    toolCalls: num(row.tool_calls),
    turns: num(row.turns),
    pending: nullableText(row.pending),
    inFlight: nullableText(row.in_flight),
    errorStage: nullableText(row.error_stage),
    errorMessage: nullableText(row.error_message),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    leaseOwner: nullableText(row.lease_owner),
    leaseExpiresAt: nullableNum(row.lease_expires_at),
    version: num(row.version),
    output: nullableText(row.output),
    owner: nullableText(row.owner),
    conversationLength: nullableNum(row.conversation_length),
    compactions: nullableText(row.compactions),
  };
}

/** A conversations-table row as a {@link StoredConversation}. */
export function toStoredConversation(row: SqlRow): StoredConversation {
  return {
    id: row.id as string,
    messages: row.messages as string,
    activeRunId: nullableText(row.active_run_id),
    version: num(row.version),
    createdAt: num(row.created_at),
    updatedAt: num(row.updated_at),
    owner: nullableText(row.owner),
    title: nullableText(row.title),
    metadata: nullableText(row.metadata),
    compactions: nullableText(row.compactions),
  };
}

/** A working-memory row as a {@link StoredWorkingMemory}. */
export function toStoredWorkingMemory(row: SqlRow): StoredWorkingMemory {
  return {
    scope: row.scope as string,
    value: row.value as string,
    version: num(row.version),
    updatedAt: num(row.updated_at),
  };
}
