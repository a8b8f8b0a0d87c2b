import type { RunStore } from '../core/durable/port';
import type { JsonValue } from '../core/kit/json';
import type { JobRetention } from './bullmq-engine';
import type { AgentRef, EnqueueOptions } from './enqueue-input';
import { agentName, depsJson, jobOptions } from './enqueue-input';
import type { QueueLimits, ResolvedLimits, RunJob, RunJobKind } from './job';
import { JOB_VERSION, jobIdOf } from './job';
import type { JobProducerPort, RunControlPort, RunFeedPort } from './port';
import { QueueError } from './queue-error';
import type { ErrorListener, RedisConnection } from './redis';
import { checkName } from './redis';
import type { FeedRetention } from './redis-feed';
import type { OwnerScope } from './run-access';
import { checkedOwner } from './run-access';

/** Options of {@link runQueue}. */
export interface RunQueueOptions {
  /** Redis: a `redis://` URL or ioredis options. */
  connection: RedisConnection;
  /** The run store the workers write to (read for statuses, results and decisions). */
  store: RunStore;
  /** The queue's name (BullMQ queue name of the default lane); default `golem`. */
  name?: string;
  /** Key prefix in Redis (BullMQ's `prefix`); default `golem`. */
  prefix?: string;
  /** The lane of an agent's runs (a rate-limited queue, see the worker's `lanes`); default `default`. */
  route?: (agent: string) => string | undefined;
  /** Defaults of every enqueue: `timeout`, `deadlineIn` (ms after enqueue), `stream`. */
  defaults?: { timeout?: number; deadlineIn?: number; stream?: boolean };
  /** Deliveries per job for failures outside the run's own budget (the store unreachable); default 5. */
  attempts?: number;
  /** First wait before such a retry, doubling; default 1 000 ms. */
  backoffMs?: number;
  limits?: QueueLimits;
  /** The trace context to carry in each job, e.g. `injectTraceContext` from `golem/otel`. */
  traceContext?: () => Record<string, string>;
  feed?: FeedRetention;
  jobs?: JobRetention;
  /** How long cancellation markers and run info (lane, agent, deps) are kept; default 30 days. */
  infoTtlMs?: number;
  /** Background Redis errors (reconnects happen by themselves); default: ignored. */
  onError?: ErrorListener;
  /** The clock (ms since the epoch); default `Date.now`. */
  clock?: () => number;
}

/** A run the queue accepted. */
export interface EnqueuedRun {
  readonly runId: string;
  readonly jobId: string;
  readonly lane: string;
}

/** Options of a later segment of a run (`decide`, `recover`). */
export interface SegmentOptions extends OwnerScope {
  /** The deps to run with; default the start's (kept with the run's info in Redis). */
  deps?: JsonValue;
  /** The agent's registry name, when the queue no longer knows it (its info expired). */
  agent?: AgentRef;
  /** The lane; default the start's. */
  lane?: string;
  /** Execution deadline of the segment, ms. */
  timeout?: number;
  /** Publish model fragments; default true when the agent's model streams. */
  stream?: boolean;
}

/** What submitting needs from the queue. Internal. */
export interface SubmitContext {
  readonly producer: JobProducerPort;
  readonly feed: RunFeedPort;
  readonly control: RunControlPort;
  readonly options: RunQueueOptions;
  readonly limits: ResolvedLimits;
  readonly now: () => number;
}

/** A job with this id exists: the same request again is a no-op; other decisions conflict. */
function duplicate(job: RunJob, existing: unknown, lane: string, jobId: string): EnqueuedRun {
  const results = (existing as Partial<RunJob> | undefined)?.results;
  if (job.kind === 'resume' && JSON.stringify(results) !== JSON.stringify(job.results))
    throw new QueueError(
      `run "${job.runId}" already has different decisions queued for this pause`,
      { reason: 'conflict', runId: job.runId },
    );
  return { runId: job.runId, jobId, lane };
}

/**
 * Queues `job` on `lane`: its `queued` feed event and run info first (so they precede anything a
 * worker publishes), then the job. Ids chosen by the caller are checked for an existing job.
 */
export async function submitJob(
  c: SubmitContext,
  job: RunJob,
  lane: string,
  deps: string | undefined,
  options: EnqueueOptions,
  runOwner: string | undefined,
  version?: number,
): Promise<EnqueuedRun> {
  checkName(lane, 'lane');
  const trace = options.traceContext ?? c.options.traceContext?.();
  if (trace !== undefined && Object.keys(trace).length > 0) job.traceContext = trace;
  const jobId = jobIdOf(job.kind, job.runId, version);
  // A generated run id is new: only ids chosen by the caller can already have a job.
  const chosen = job.kind !== 'start' || options.runId !== undefined;
  if (chosen) {
    const before = await c.producer.find(lane, jobId);
    if (before !== undefined) return duplicate(job, before.data, lane, jobId);
  }
  const queued = { type: 'queued', runId: job.runId, agent: job.agent, kind: job.kind } as const;
  await Promise.all([
    c.feed.append(job.runId, [{ ...queued, at: c.now() }]),
    c.control.setRunInfo(job.runId, {
      lane,
      jobId,
      agent: job.agent,
      ...(deps !== undefined && { deps }),
      ...(runOwner !== undefined && { owner: runOwner }),
    }),
  ]);
  const { added, existing } = await c.producer.submit({
    verify: chosen,
    lane,
    id: jobId,
    data: job,
    ...(options.delay !== undefined && { notBefore: c.now() + options.delay }),
    attempts: c.options.attempts ?? 5,
    backoffMs: c.options.backoffMs ?? 1_000,
    ...(options.priority !== undefined && { priority: options.priority }),
  });
  return added ? { runId: job.runId, jobId, lane } : duplicate(job, existing, lane, jobId);
}

/**
 * Queues a later segment (`resume` with decisions, `continue`) of the stored run `runId`; the job
 * carries the caller's `owner` (the worker's agent call checks it again against the stored run).
 */
export async function submitSegment(
  c: SubmitContext,
  kind: RunJobKind,
  stored: {
    readonly id: string;
    readonly version: number;
    readonly agent: string;
    readonly owner: string | undefined;
  },
  options: SegmentOptions,
  extra: Partial<RunJob>,
): Promise<EnqueuedRun> {
  const { id: runId, version, agent: storedAgent } = stored;
  const owner = checkedOwner(options.owner);
  const info = await c.control.runInfo(runId);
  const name =
    options.agent === undefined ? (info?.agent ?? storedAgent) : agentName(options.agent);
  const deps = options.deps === undefined ? info?.deps : depsJson(options.deps, c.limits);
  const defaults = c.options.defaults ?? {};
  const job: RunJob = {
    v: JOB_VERSION,
    kind,
    runId,
    agent: name,
    ...(owner !== undefined && { owner }),
    ...(deps !== undefined && { deps: JSON.parse(deps) as JsonValue }),
    options: jobOptions({ timeout: defaults.timeout, stream: defaults.stream, ...options }),
    enqueuedAt: c.now(),
    ...extra,
  };
  const lane = options.lane ?? info?.lane ?? c.options.route?.(name) ?? 'default';
  return submitJob(c, job, lane, deps, {}, stored.owner, version);
}
