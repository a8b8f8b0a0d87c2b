import type { JsonObject, JsonValue } from '../core/kit/json';
import { isRecord } from '../core/kit/guards';
import { byteLength, checkSize, plainJson } from './plain-json';
import { QueueError } from './queue-error';

/** The payload version this golem/queue writes and reads. */
export const JOB_VERSION = 1;

/** What a job asks a worker to do with its run: start it, resume it with decisions, or continue it. */
export type RunJobKind = 'start' | 'resume' | 'continue';

/** Run options a job carries (all JSON). */
export interface RunJobOptions {
  /** Execution deadline of each segment, ms. */
  timeout?: number;
  /** Per model call deadline, ms (0 = none). */
  turnTimeout?: number;
  /** Merged over the agent's model settings. */
  modelSettings?: JsonObject;
  /** Stream model fragments to subscribers; default: when the agent's model streams. */
  stream?: boolean;
}

/** Decisions for a paused run, as a job carries them (plain records). */
export interface JobDecisions {
  approvals?: Record<string, { approved: boolean; reason?: string }>;
  external?: Record<string, string>;
}

/**
 * A queued run, as stored in the job (version {@link JOB_VERSION}). Everything in it is JSON:
 * collaborators that are not (clients, services) come from the worker's registry or container.
 */
export interface RunJob {
  v: typeof JOB_VERSION;
  kind: RunJobKind;
  runId: string;
  /** The registry name of the agent. */
  agent: string;
  /** `start`: the prompt. */
  prompt?: string;
  /** `start`: the stored conversation to continue. */
  conversation?: string;
  /**
   * Who the run belongs to (`start`), or who asks for it (`resume`, `continue`): the worker passes
   * it as the agent call's `owner`, so the run store checks it again. Absent: unscoped.
   */
  owner?: string;
  deps?: JsonValue;
  /** `resume`: the decisions. */
  results?: JobDecisions;
  /** `resume`: the stored version of the pause they answer. */
  pausedVersion?: number;
  options: RunJobOptions;
  /** Absolute deadline (ms since the epoch) for the whole run, queue time included. */
  deadline?: number;
  /** The enqueuing request's trace context (W3C `traceparent`, …). */
  traceContext?: Record<string, string>;
  /** When it was enqueued (ms since the epoch). */
  enqueuedAt: number;
  /** Set by a worker that stopped mid-run (shutdown): the next one continues the run. */
  handover?: boolean;
}

/** Byte limits checked at enqueue and again by workers. */
export interface QueueLimits {
  /** The prompt, UTF-8 bytes; default 262 144 (256 KiB). */
  promptBytes?: number;
  /** `deps` as JSON, bytes; default 65 536 (64 KiB). */
  depsBytes?: number;
  /** The whole job payload as JSON, bytes; default 524 288 (512 KiB). */
  jobBytes?: number;
}

/** {@link QueueLimits} with the defaults applied. */
export type ResolvedLimits = Required<QueueLimits>;

/** The default limits. */
export const DEFAULT_LIMITS: ResolvedLimits = Object.freeze({
  promptBytes: 262_144,
  depsBytes: 65_536,
  jobBytes: 524_288,
});

/** Validated limits; a bad value is `invalid-options`. */
export function resolveLimits(limits: QueueLimits = {}): ResolvedLimits {
  const out = { ...DEFAULT_LIMITS, ...limits };
  for (const [key, value] of Object.entries(out))
    if (!Number.isSafeInteger(value) || value < 1)
      throw new QueueError(`limits.${key} must be a positive integer of bytes`, {
        reason: 'invalid-options',
      });
  return out;
}

const ID = /^[\x21-\x7e]{1,200}$/;

/** Owners are keys (the run store's rule): 1–200 characters, none of them a control character. */
const OWNER = /^[^\p{Cc}]{1,200}$/u;

/** Whether `owner` is a valid run owner (a tenant or user key). */
export function isOwner(owner: unknown): owner is string {
  return typeof owner === 'string' && OWNER.test(owner);
}

/** Whether `id` is a valid run id / conversation id (the run store's rule). */
export function isRunId(id: unknown): id is string {
  return typeof id === 'string' && ID.test(id);
}

/** The BullMQ-safe form of a run id inside a job id (`:` and `%` escaped). */
function jobIdPart(runId: string): string {
  return runId.replace(/%/g, '%25').replace(/:/g, '%3A');
}

/** The job id of a run's segment: deduplicates enqueues of the same start, decision or recovery. */
export function jobIdOf(kind: RunJobKind, runId: string, version?: number): string {
  const base = `${kind}.${jobIdPart(runId)}`;
  return version === undefined ? base : `${base}.${version}`;
}

/**
 * The run id a job id names (`start.<runId>`, `resume.<runId>.<version>`, …: see {@link jobIdOf}),
 * or undefined — for a job whose payload cannot say it.
 */
export function runIdOfJobId(jobId: string): string | undefined {
  const match = /^(?:start\.(.+)|(?:resume|continue)\.(.+)\.\d+)$/.exec(jobId);
  const part = match?.[1] ?? match?.[2];
  if (part === undefined) return undefined;
  const runId = part.replace(/%(25|3A)/g, (escape) => (escape === '%25' ? '%' : ':'));
  return isRunId(runId) ? runId : undefined;
}

function bad(message: string, runId?: string): QueueError {
  return new QueueError(`job payload is invalid: ${message}`, {
    reason: 'invalid-job',
    ...(runId !== undefined && { runId }),
  });
}

function optionalNumber(value: unknown, name: string, min: number, runId: string): void {
  if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || value < min))
    throw bad(`${name} must be a number ≥ ${min}`, runId);
}

function checkVersion(data: Record<string, unknown>, runId: string | undefined): void {
  const v = data.v;
  // Without a version it is not a golem/queue payload of any version: damaged, or written by
  // something else.
  if (typeof v !== 'number' || !Number.isSafeInteger(v))
    throw bad(
      `it has no version (v is ${v === undefined ? 'missing' : JSON.stringify(v)}): it was not written by golem/queue`,
      runId,
    );
  if (v === JOB_VERSION) return;
  const hint =
    v < JOB_VERSION
      ? 'it was written by an older golem/queue; enqueue the run again (queue.recover(runId) continues a run that had started)'
      : 'it was written by a newer golem/queue; upgrade this worker (upgrade workers before producers)';
  throw new QueueError(
    `job payload version ${v} is not supported by this worker, which reads version ${JOB_VERSION}: ${hint}`,
    { reason: 'unsupported-version', ...(runId !== undefined && { runId }) },
  );
}

function checkDecisions(value: unknown, runId: string): void {
  if (!isRecord(value)) throw bad('results must be an object', runId);
  const { approvals = {}, external = {} } = value;
  if (!isRecord(approvals) || !isRecord(external))
    throw bad('results.approvals and results.external must be objects', runId);
  for (const a of Object.values(approvals))
    if (!isRecord(a) || typeof a.approved !== 'boolean')
      throw bad('every approval must be { approved: boolean, reason?: string }', runId);
  for (const e of Object.values(external))
    if (typeof e !== 'string') throw bad('every external result must be a string', runId);
}

/**
 * Decodes and validates an untrusted job payload (written by a producer of this or another
 * version, or by anything else with access to Redis). Throws `QueueError`s: `invalid-job`,
 * `unsupported-version`, `too-large`, `invalid-deps` — with `runId` when the payload names one.
 */
export function parseJob(data: unknown, limits: ResolvedLimits): RunJob {
  if (!isRecord(data)) throw bad('not an object');
  const runId = isRunId(data.runId) ? data.runId : undefined;
  checkVersion(data, runId);
  if (runId === undefined) throw bad('runId must be 1–200 printable ASCII characters');
  checkSize(JSON.stringify(data), `job for run "${runId}"`, limits.jobBytes, 'limits.jobBytes');
  const { kind, agent, prompt, conversation, deps, options = {} } = data;
  if (kind !== 'start' && kind !== 'resume' && kind !== 'continue')
    throw bad('kind must be start, resume or continue', runId);
  if (typeof agent !== 'string' || agent === '' || agent.length > 200)
    throw bad('agent must be a name of 1–200 characters', runId);
  if (kind === 'start') {
    if (typeof prompt !== 'string') throw bad('a start job needs a prompt string', runId);
    checkSize(prompt, `prompt of run "${runId}"`, limits.promptBytes, 'limits.promptBytes');
  }
  if (conversation !== undefined && !isRunId(conversation))
    throw bad('conversation must be 1–200 printable ASCII characters', runId);
  if (data.owner !== undefined && !isOwner(data.owner))
    throw bad('owner must be 1–200 characters without control characters', runId);
  if (deps !== undefined) {
    const text = plainJson(deps, 'deps', 'invalid-deps', 'a job carries plain JSON only');
    checkSize(text, `deps of run "${runId}"`, limits.depsBytes, 'limits.depsBytes');
  }
  if (kind === 'resume') {
    checkDecisions(data.results, runId);
    if (!Number.isSafeInteger(data.pausedVersion))
      throw bad('a resume job needs pausedVersion', runId);
  }
  if (!isRecord(options)) throw bad('options must be an object', runId);
  optionalNumber(options.timeout, 'options.timeout', 1, runId);
  optionalNumber(options.turnTimeout, 'options.turnTimeout', 0, runId);
  if (options.modelSettings !== undefined && !isRecord(options.modelSettings))
    throw bad('options.modelSettings must be an object', runId);
  if (options.stream !== undefined && typeof options.stream !== 'boolean')
    throw bad('options.stream must be a boolean', runId);
  optionalNumber(data.deadline, 'deadline', 0, runId);
  optionalNumber(data.enqueuedAt, 'enqueuedAt', 0, runId);
  if (data.traceContext !== undefined && !isRecord(data.traceContext))
    throw bad('traceContext must be an object of strings', runId);
  return { ...(data as unknown as RunJob), options };
}

/** The payload's size as the queue stores it (JSON bytes). */
export function jobBytes(job: RunJob): number {
  return byteLength(JSON.stringify(job));
}
