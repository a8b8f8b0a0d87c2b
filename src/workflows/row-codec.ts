import type { JsonValue } from '../core/index';
import { isRecord } from '../core/kit/guards';
import type { WorkflowRunInfo } from './run-info';
import type { StepRecord, StepWaiting, WaitingInfo } from './step-record';
import type { StoredWorkflowRun, WorkflowStatus } from './store-port';
import { WORKFLOW_STATUSES } from './store-port';
import { WorkflowError } from './workflow-error';

const KINDS = ['step', 'sleep', 'event', 'agent'];
const STEP_STATUSES = ['running', 'completed', 'failed', 'suspended'];
const WAITING_KINDS = ['decision', 'event', 'timer'];

/** Decodes a stored workflow run (untrusted: anything malformed is a `corrupt` WorkflowError). */
export function decodeRow(row: StoredWorkflowRun): WorkflowRunInfo {
  const id = row.id;
  const bad = (what: string): never => {
    throw new WorkflowError(
      'corrupt',
      `stored workflow run ${JSON.stringify(id)} is corrupt: ${what}; it was not written by golem/workflows or was damaged`,
      { runId: id },
    );
  };
  if (!WORKFLOW_STATUSES.includes(row.status as WorkflowStatus))
    bad(`unknown status ${JSON.stringify(row.status)}`);
  const steps = decodeSteps(parse(row.steps, 'steps', bad), bad);
  const waiting = row.waiting === null ? [] : parse(row.waiting, 'waiting', bad);
  if (!Array.isArray(waiting)) bad('waiting is not an array');
  const error = row.error === null ? undefined : parse(row.error, 'error', bad);
  const forked = row.forkedFrom === null ? undefined : parse(row.forkedFrom, 'forkedFrom', bad);
  return {
    id,
    workflow: row.workflow,
    owner: row.owner ?? undefined,
    status: row.status as WorkflowStatus,
    input: parse(row.input, 'input', bad),
    output: row.output === null ? undefined : parse(row.output, 'output', bad),
    error: error === undefined ? undefined : decodeError(error, bad),
    steps,
    waiting: (waiting as unknown[]).map((w) => decodeWaitingInfo(w, bad)),
    wakeAt: row.wakeAt ?? undefined,
    forkedFrom: forked === undefined ? undefined : decodeForked(forked, bad),
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    lease:
      row.leaseOwner === null || row.leaseExpiresAt === null
        ? undefined
        : { owner: row.leaseOwner, expiresAt: row.leaseExpiresAt },
    version: row.version,
  };
}

/** The steps column of `steps` (start order). Internal. */
export function encodeSteps(steps: Iterable<StepRecord>): string {
  return JSON.stringify([...steps].sort((a, b) => a.seq - b.seq));
}

function parse(text: unknown, what: string, bad: (w: string) => never): JsonValue {
  if (typeof text !== 'string') return bad(`${what} is not text`);
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    return bad(`${what} is not JSON`);
  }
}

function decodeSteps(value: JsonValue, bad: (w: string) => never): StepRecord[] {
  if (!Array.isArray(value)) return bad('steps is not an array');
  const keys = new Set<string>();
  return value.map((item) => {
    if (!isRecord(item)) return bad('a step is not an object');
    const { key, name, kind, status, seq, attempt, startedAt } = item;
    if (typeof key !== 'string' || keys.has(key)) return bad('a step key is missing or repeated');
    keys.add(key);
    if (typeof name !== 'string') return bad(`step ${key} has no name`);
    if (typeof kind !== 'string' || !KINDS.includes(kind)) return bad(`step ${key} has a bad kind`);
    if (typeof status !== 'string' || !STEP_STATUSES.includes(status))
      return bad(`step ${key} has a bad status`);
    if (!isCount(seq) || !isCount(attempt) || typeof startedAt !== 'number')
      return bad(`step ${key} has a bad seq, attempt or startedAt`);
    const record: StepRecord = {
      key,
      name,
      kind: kind as StepRecord['kind'],
      status: status as StepRecord['status'],
      seq,
      attempt,
      startedAt,
    };
    if (isCount(item.group)) record.group = item.group;
    if (typeof item.endedAt === 'number') record.endedAt = item.endedAt;
    if (item.output !== undefined) record.output = item.output;
    if (item.error !== undefined) record.error = decodeError(item.error, bad);
    if (item.waiting !== undefined) record.waiting = decodeWaiting(item.waiting, bad);
    if (item.resumeData !== undefined) record.resumeData = item.resumeData;
    if (typeof item.agentRunId === 'string') record.agentRunId = item.agentRunId;
    return record;
  });
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function decodeError(
  value: JsonValue,
  bad: (w: string) => never,
): { name: string; message: string; step?: string } {
  if (!isRecord(value) || typeof value.name !== 'string' || typeof value.message !== 'string')
    return bad('an error is not { name, message }');
  return {
    name: value.name,
    message: value.message,
    ...(typeof value.step === 'string' && { step: value.step }),
  };
}

function decodeWaiting(value: unknown, bad: (w: string) => never): StepWaiting {
  if (!isRecord(value) || typeof value.kind !== 'string' || !WAITING_KINDS.includes(value.kind))
    return bad('a waiting entry has a bad kind');
  const waiting: StepWaiting = { kind: value.kind as StepWaiting['kind'] };
  if (typeof value.reason === 'string') waiting.reason = value.reason;
  if (value.payload !== undefined) waiting.payload = value.payload as JsonValue;
  if (typeof value.event === 'string') waiting.event = value.event;
  if (typeof value.wakeAt === 'number') waiting.wakeAt = value.wakeAt;
  return waiting;
}

function decodeWaitingInfo(value: unknown, bad: (w: string) => never): WaitingInfo {
  if (!isRecord(value) || typeof value.step !== 'string') return bad('a waiting entry has no step');
  return { step: value.step, ...decodeWaiting(value, bad) };
}

function decodeForked(
  value: JsonValue,
  bad: (w: string) => never,
): { runId: string; step: string } {
  if (!isRecord(value) || typeof value.runId !== 'string' || typeof value.step !== 'string')
    return bad('forkedFrom is not { runId, step }');
  return { runId: value.runId, step: value.step };
}
