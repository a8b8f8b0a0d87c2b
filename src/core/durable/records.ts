import type { PendingToolCall, PendingToolCalls } from '../engine/deferred-types';
import { corrupt } from './corrupt-row';
import { readMetadata, readTitle } from './thread-fields';
import type { Compaction } from '../engine/compaction';
import { readCompactionsColumn } from './compaction-column';
import type { Message } from '../contract/message';
import type { Usage } from '../contract/usage';
import type { JsonValue } from '../kit/json';
import { USAGE_DETAILS } from '../contract/usage';
import { decodeMessages, encodeMessage } from '../codec/codec';
import { describeError } from '../kit/error-base';
import { isRecord } from '../kit/guards';
import { quote, StoreError } from './store-error';
import type { RunState, StateFields, StateOrigin } from '../engine/run-state';
import { attachState } from '../engine/run-state';

/** Where a stored run is: executing (or interrupted), waiting for decisions, or finished. */
export type RunStatus = 'running' | 'paused' | 'completed' | 'failed';

/** The statuses, as stored. */
export const RUN_STATUSES: readonly RunStatus[] = ['running', 'paused', 'completed', 'failed'];

/**
 * A run as a store keeps it (one row): text fields hold JSON — `messages` in the durable codec of
 * `encodeMessages`, `usage` as `{ inputTokens, outputTokens }`, `pending` as `PendingToolCalls`,
 * `inFlight` as an array of call ids. Times are milliseconds since the epoch. Store adapters keep
 * rows verbatim; golem decodes and validates them when it reads.
 */
export interface StoredRun {
  id: string;
  agent: string;
  conversationId: string | null;
  /** How many non-system messages of `messages` came from the conversation (the rest are the run's). */
  conversationBase: number;
  status: string;
  messages: string;
  usage: string;
  requests: number;
  toolCalls: number;
  /** Model turns completed by the run. */
  turns: number;
  pending: string | null;
  inFlight: string | null;
  errorStage: string | null;
  errorMessage: string | null;
  createdAt: number;
  updatedAt: number;
  leaseOwner: string | null;
  leaseExpiresAt: number | null;
  /** Incremented by every write; a write names the version it replaces (optimistic concurrency). */
  version: number;
  /**
   * A completed run's decoded output as JSON text (`null` otherwise, or when it is not
   * JSON-serialisable). Optional so adapters written before schema version 2 keep compiling;
   * adapters store it verbatim like every other field.
   */
  output?: string | null;
  /**
   * Who the run belongs to (a tenant or user key given at start), or `null`. Optional so adapters
   * written before schema version 3 keep compiling; adapters store it verbatim.
   */
  owner?: string | null;
  /**
   * How many messages its conversation had when the run started (`null` without a conversation,
   * or when unknown). A failed run whose conversation has more now is not continued: a newer run
   * completed there. Optional so adapters written before schema version 4 keep compiling;
   * adapters store it verbatim.
   */
  conversationLength?: number | null;
  /**
   * What compaction replaced in the context the run's model saw, as JSON text (`null`: nothing).
   * Optional so adapters written before schema version 5 keep compiling; stored verbatim.
   */
  compactions?: string | null;
}

/** A conversation as a store keeps it: its messages (durable codec JSON) and the run using it. */
export interface StoredConversation {
  id: string;
  messages: string;
  /** The run that has the conversation (running or paused), or `null`. */
  activeRunId: string | null;
  version: number;
  createdAt: number;
  updatedAt: number;
  /** Who the conversation belongs to (set by the run that created it), or `null`. */
  owner?: string | null;
  /**
   * Its title (threads), or `null`. Optional so adapters written before schema version 5 keep
   * compiling; adapters store it verbatim, and writers keep the value they read.
   */
  /**
   * The compactions of the conversation's latest completed run, positions in its messages, as JSON
   * text (`null`: none): the next run on it starts with the same compacted context. Optional like
   * `title`; stored verbatim.
   */
  compactions?: string | null;
  title?: string | null;
  /**
   * Its metadata as JSON text of an object (threads), or `null`. Optional like `title`; stored
   * verbatim.
   */
  metadata?: string | null;
}

/**
 * One scope's working memory as a store keeps it: `value` is JSON text, `version` counts writes
 * (the first is 1) and makes {@link RunStore.putWorkingMemory} conditional. Stored verbatim.
 */
export interface StoredWorkingMemory {
  /** What the memory belongs to (a key the working-memory feature builds, e.g. per user). */
  scope: string;
  /** The memory as JSON text. */
  value: string;
  version: number;
  /** When it was written, ms since the epoch. */
  updatedAt: number;
}

/** A stored run, decoded and validated. */
export interface RunRecord {
  id: string;
  /** The agent's `name`. */
  agent: string;
  conversationId: string | undefined;
  status: RunStatus;
  /** The last checkpoint: a history whose every answered call has exactly one result. */
  messages: Message[];
  usage: Usage;
  requests: number;
  toolCalls: number;
  turns: number;
  /**
   * The calls a paused run waits for. On a `running` or `failed` run: calls still waiting for a
   * decision (a resume took the run and had not committed its resolutions) — continuing the run
   * pauses on them again instead of running them.
   */
  pending: PendingToolCalls | undefined;
  /** Calls that had started and had no recorded outcome at the last checkpoint. */
  inFlight: string[];
  /** Why a failed run failed: the `RunError` stage (or `store`) and message. */
  error: { stage: string; message: string } | undefined;
  createdAt: number;
  updatedAt: number;
  /** Who may write the run until when; absent when nobody holds it. */
  lease: { owner: string; expiresAt: number } | undefined;
  version: number;
  /**
   * A completed run's output as the agent decoded it, round-tripped through JSON (so a class
   * instance comes back as a plain object); `undefined` for other runs, for runs stored before
   * schema version 2, and for outputs JSON cannot represent.
   */
  output: unknown;
  /** Who the run belongs to (the `owner` it was started with); `undefined` when it has none. */
  owner: string | undefined;
  /**
   * The run's state as one JSON value, the same a result carries (`result.state`): what
   * `agent.resume(state, results)` and `agent.resumeRun(state)` continue from. Computed on first
   * read; not enumerable.
   */
  readonly state: RunState;
  /** What compaction replaced in the context the run's model saw (`messages` keep the originals). */
  compactions: Compaction[];
}

/** A stored conversation, decoded. */
export interface ConversationRecord {
  id: string;
  /** Every message of every completed run on the conversation (no system messages). */
  messages: Message[];
  activeRunId: string | undefined;
  version: number;
  createdAt: number;
  updatedAt: number;
  /** Who the conversation belongs to; `undefined` when it has none. */
  owner: string | undefined;
  /** Its title; `undefined` when it has none. */
  title: string | undefined;
  /** The compactions its next run starts with (positions in `messages`); empty when none. */
  compactions: Compaction[];
  /** Its metadata (a JSON object); `undefined` when it has none. */
  metadata: Record<string, JsonValue> | undefined;
}

/** Each message's encoding, computed once per message object. */
const encoded = new WeakMap<Message, string>();

/** `encodeMessages(messages)`, reusing the text of messages encoded before. */
export function messagesJson(messages: readonly Message[]): string {
  const parts: string[] = [];
  for (const message of messages) {
    let text = encoded.get(message);
    if (text === undefined) {
      text = encodeMessage(message);
      encoded.set(message, text);
    }
    parts.push(text);
  }
  return `[${parts.join(',')}]`;
}

/** Decodes stored history, or throws `corrupt` naming the record. */
export function readMessages(text: unknown, what: 'run' | 'conversation', id: string): Message[] {
  if (typeof text !== 'string') throw corrupt(what, id, 'messages is not text');
  try {
    return decodeMessages(text);
  } catch (cause) {
    throw corrupt(what, id, `messages do not decode (${describeError(cause)})`, cause);
  }
}

function count(row: StoredRun, field: keyof StoredRun): number {
  const value = row[field];
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw corrupt('run', row.id, `${field} is not a non-negative integer`);
  return value;
}

function json(row: StoredRun, field: 'usage' | 'pending' | 'inFlight' | 'output'): unknown {
  const text = row[field];
  if (text === null || text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (cause) {
    throw corrupt('run', row.id, `${field} is not valid JSON`, cause);
  }
}

function readUsage(row: StoredRun): Usage {
  const value = json(row, 'usage');
  const ok = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0;
  if (!isRecord(value) || !ok(value.inputTokens) || !ok(value.outputTokens))
    throw corrupt('run', row.id, 'usage is not { inputTokens, outputTokens }');
  const usage: Usage = { inputTokens: value.inputTokens, outputTokens: value.outputTokens };
  // Detail counters (cache, reasoning) were added later; rows without them stay valid.
  for (const key of USAGE_DETAILS) {
    const detail = value[key];
    if (detail === undefined) continue;
    if (!ok(detail)) throw corrupt('run', row.id, `usage.${key} is not a count`);
    usage[key] = detail;
  }
  return usage;
}

function readPendingList(row: StoredRun, value: unknown, group: string): PendingToolCall[] {
  if (!Array.isArray(value)) throw corrupt('run', row.id, `pending.${group} is not an array`);
  return value.map((entry: unknown, i) => {
    const fields = ['callId', 'toolName', 'args', 'reason'] as const;
    if (!isRecord(entry) || fields.some((f) => typeof entry[f] !== 'string'))
      throw corrupt(
        'run',
        row.id,
        `pending.${group}[${i}] is not { callId, toolName, args, reason }`,
      );
    return {
      callId: entry.callId as string,
      toolName: entry.toolName as string,
      args: entry.args as string,
      reason: entry.reason as string,
    };
  });
}

function readPending(row: StoredRun): PendingToolCalls | undefined {
  const value = json(row, 'pending');
  if (value === undefined) return undefined;
  if (!isRecord(value)) throw corrupt('run', row.id, 'pending is not an object');
  return {
    approvals: readPendingList(row, value.approvals, 'approvals'),
    external: readPendingList(row, value.external, 'external'),
  };
}

function readInFlight(row: StoredRun): string[] {
  const value = json(row, 'inFlight') ?? [];
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string'))
    throw corrupt('run', row.id, 'inFlight is not an array of call ids');
  return value as string[];
}

/** Decodes and validates a stored run; anything malformed is a `corrupt` {@link StoreError}. */
export function decodeRun(row: StoredRun): RunRecord {
  if (!isRecord(row) || typeof row.id !== 'string')
    throw new StoreError('a stored run row has no id', { reason: 'corrupt' });
  const status = row.status as RunStatus;
  if (!RUN_STATUSES.includes(status))
    throw corrupt(
      'run',
      row.id,
      `status ${quote(row.status)} is not one of ${RUN_STATUSES.join(', ')}`,
    );
  if (typeof row.agent !== 'string') throw corrupt('run', row.id, 'agent is not text');
  const lease =
    typeof row.leaseOwner === 'string' && typeof row.leaseExpiresAt === 'number'
      ? { owner: row.leaseOwner, expiresAt: row.leaseExpiresAt }
      : undefined;
  const record: Omit<RunRecord, 'state'> = {
    id: row.id,
    agent: row.agent,
    conversationId: typeof row.conversationId === 'string' ? row.conversationId : undefined,
    status,
    messages: readMessages(row.messages, 'run', row.id),
    usage: readUsage(row),
    requests: count(row, 'requests'),
    toolCalls: count(row, 'toolCalls'),
    turns: count(row, 'turns'),
    pending: readPending(row),
    inFlight: readInFlight(row),
    error:
      typeof row.errorStage === 'string'
        ? { stage: row.errorStage, message: row.errorMessage ?? '' }
        : undefined,
    createdAt: count(row, 'createdAt'),
    updatedAt: count(row, 'updatedAt'),
    lease,
    version: count(row, 'version'),
    output: json(row, 'output'),
    owner: typeof row.owner === 'string' ? row.owner : undefined,
    compactions: [],
  };
  record.compactions = readCompactionsColumn(row.compactions, record.messages, 'run', row.id);
  return attachState(record, () => stateFields(record)) as RunRecord;
}

/** Who a stored run is and when it started, as its state names it. Internal. */
export function originOf(record: Omit<RunRecord, 'state'>): StateOrigin {
  return {
    agent: record.agent,
    runId: record.id,
    owner: record.owner,
    conversationId: record.conversationId,
    startedAt: record.createdAt,
  };
}

/**
 * The state a stored run's row holds, column by column (the row is the state's stored form, with
 * the lease, version and times a store needs besides). Internal.
 */
export function stateFields(record: Omit<RunRecord, 'state'>): StateFields {
  return {
    origin: originOf(record),
    status: record.status,
    messages: record.messages,
    pending: record.pending,
    inFlight: record.inFlight,
    usage: record.usage,
    requests: record.requests,
    toolCalls: record.toolCalls,
    turns: record.turns,
    compactions: record.compactions,
  };
}

/** A run's decoded output as stored JSON text; `null` when there is none or JSON cannot hold it. */
export function outputJson(output: unknown): string | null {
  if (output === undefined) return null;
  try {
    const text = JSON.stringify(output) as string | undefined; // undefined for a function
    return text ?? null;
  } catch {
    return null; // a BigInt or a cycle: the output stays in the result only
  }
}

/** Decodes a stored conversation; malformed messages are a `corrupt` {@link StoreError}. */
export function decodeConversation(row: StoredConversation): ConversationRecord {
  const messages = readMessages(row.messages, 'conversation', row.id);
  return {
    id: row.id,
    messages,
    compactions: readCompactionsColumn(row.compactions, messages, 'conversation', row.id),
    activeRunId: row.activeRunId ?? undefined,
    version: row.version,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    owner: typeof row.owner === 'string' ? row.owner : undefined,
    title: readTitle(row),
    metadata: readMetadata(row),
  };
}
