import { parseHistory } from '../codec/codec';
import type { Message } from '../contract/message';
import type { Usage } from '../contract/usage';
import { USAGE_DETAILS } from '../contract/usage';
import { describeError } from '../kit/error-base';
import { isRecord } from '../kit/guards';
import type { PendingToolCall, PendingToolCalls } from './deferred-types';
import { RunInputError } from './errors';
import { readCompactions } from './compaction-record';
import type { ReadState, RunState } from './run-state';
import { RUN_STATE_FORMAT, RUN_STATE_VERSION, stepOf } from './run-state';

// Reading a run's state back, as untrusted input (`resume(state)`, `resumeRun(state)`).

const STATUSES = ['running', 'paused', 'completed', 'failed'] as const;

function invalid(problem: string, cause?: unknown): RunInputError {
  return new RunInputError(
    `state is not a golem run state: ${problem}`,
    cause === undefined ? undefined : { cause },
  );
}

function text(value: unknown, field: string, optional: true): string | undefined;
function text(value: unknown, field: string, optional?: false): string;
function text(value: unknown, field: string, optional = false): string | undefined {
  if (value === undefined && optional) return undefined;
  if (typeof value !== 'string' || value === '') throw invalid(`${field} is not a text`);
  return value;
}

function count(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw invalid(`${field} is not a non-negative integer`);
  return value;
}

function readUsage(value: unknown): Usage {
  if (!isRecord(value)) throw invalid('usage is not an object');
  const usage: Usage = {
    inputTokens: count(value.inputTokens, 'usage.inputTokens'),
    outputTokens: count(value.outputTokens, 'usage.outputTokens'),
  };
  for (const key of USAGE_DETAILS)
    if (value[key] !== undefined) usage[key] = count(value[key], `usage.${key}`);
  return usage;
}

function readPendingList(value: unknown, group: string): PendingToolCall[] {
  if (!Array.isArray(value)) throw invalid(`pending.${group} is not an array`);
  return value.map((entry: unknown, i) => {
    if (!isRecord(entry)) throw invalid(`pending.${group}[${i}] is not an object`);
    return {
      callId: text(entry.callId, `pending.${group}[${i}].callId`),
      toolName: text(entry.toolName, `pending.${group}[${i}].toolName`),
      args: typeof entry.args === 'string' ? entry.args : '',
      reason: typeof entry.reason === 'string' ? entry.reason : '',
    };
  });
}

function readPending(value: unknown): PendingToolCalls | undefined {
  if (value === undefined || value === null) return undefined;
  if (!isRecord(value)) throw invalid('pending is not an object');
  return {
    approvals: readPendingList(value.approvals ?? [], 'approvals'),
    external: readPendingList(value.external ?? [], 'external'),
  };
}

function readInFlight(value: unknown): string[] {
  if (value === undefined) return [];
  if (!Array.isArray(value) || value.some((id) => typeof id !== 'string' || id === ''))
    throw invalid('inFlight is not an array of call ids');
  return value as string[];
}

/**
 * Reads a state value (the object, or its `JSON.parse`) as untrusted input: every field checked,
 * the messages decoded by the durable codec and repaired nowhere — a state whose history does
 * not decode is refused with a `RunInputError` naming the field. Versions newer than this golem
 * knows are refused; older ones are read through their version (there is only one so far).
 * Internal.
 */
export function readState(value: unknown): ReadState {
  if (!isRecord(value) || Array.isArray(value)) throw invalid('it is not an object');
  if (value.format !== RUN_STATE_FORMAT) throw invalid(`format is not '${RUN_STATE_FORMAT}'`);
  const version = count(value.version, 'version');
  if (version > RUN_STATE_VERSION)
    throw new RunInputError(
      `state is version ${version}, written by a newer golem; this golem reads versions up to ${RUN_STATE_VERSION} — upgrade golem to continue it`,
    );
  if (version < 1) throw invalid('version is not 1 or more');
  const status = value.status as RunState['status'];
  if (!STATUSES.includes(status)) throw invalid(`status is not one of ${STATUSES.join(', ')}`);
  let messages: Message[];
  try {
    messages = parseHistory(value.messages);
  } catch (cause) {
    throw invalid(`messages do not decode (${describeError(cause)})`, cause);
  }
  const pending = readPending(value.pending);
  if (status === 'paused' && pending === undefined) throw invalid('a paused state has no pending');
  const startedAt = count(value.startedAt, 'startedAt');
  let compactions;
  try {
    const start = messages[0]?.role === 'system' ? 1 : 0;
    compactions = readCompactions(value.compactions, messages.length - start);
  } catch (cause) {
    throw invalid(describeError(cause), cause);
  }
  const contextTokens =
    value.contextTokens === undefined ? undefined : count(value.contextTokens, 'contextTokens');
  return {
    origin: {
      agent: text(value.agent, 'agent'),
      runId: text(value.runId, 'runId', true),
      owner: text(value.owner, 'owner', true),
      conversationId: text(value.conversationId, 'conversationId', true),
      startedAt,
    },
    status,
    // The step is derived again from what it summarises, so a state cannot claim another one.
    step: stepOf(status, messages),
    messages,
    pending,
    inFlight: readInFlight(value.inFlight),
    usage: readUsage(value.usage),
    requests: count(value.requests, 'requests'),
    toolCalls: count(value.toolCalls, 'toolCalls'),
    turns: count(value.turns, 'turns'),
    compactions,
    contextTokens,
  };
}
