import type { RunStore } from '../core/durable/port';
import type { RunRecord } from '../core/durable/records';
import { decodeRun } from '../core/durable/records';
import type { Result } from '../core/engine/result';
import { RunStreamFeed } from '../core/engine/run-stream-feed';
import type { DeltaHandler } from '../core/contract/model';
import type { ActiveRun, ActiveRuns } from './active-runs';
import type { FeedPublisher } from './feed-publisher';
import { feedRunEvent, jsonOf } from './feed-events';
import type { ResolvedLimits, RunJob } from './job';
import { parseJob, runIdOfJobId } from './job';
import type { EndingContext } from './endings';
import { describeFailure, endCancelled, failureOutcome, rejectPayload } from './endings';
import type { DeliveryPlan } from './plan';
import { planDelivery } from './plan';
import type { JobDelivery, JobOutcome, RunControlPort } from './port';
import type { AgentEntry, QueueAgent } from './registry';
import { agentFor } from './registry';
import { QueueError } from './queue-error';

/** Runs `fn` inside the trace context a job carries (e.g. `withTraceContext` from golem/otel). */
export type TraceContinuation = <T>(carrier: Record<string, string>, fn: () => T) => T;

/** Everything a worker's deliveries share. Internal. */
export interface Executor extends EndingContext {
  readonly store: RunStore;
  readonly agents: ReadonlyMap<string, AgentEntry>;
  readonly feed: FeedPublisher;
  readonly control: RunControlPort;
  readonly active: ActiveRuns;
  readonly limits: ResolvedLimits;
  readonly workerId: string;
  readonly now: () => number;
  /** Caps every run segment's execution time, ms. */
  readonly timeout: number | undefined;
  readonly continueTrace: TraceContinuation | undefined;
}

/** Handles one delivery: validates the payload, plans from the stored run, runs the agent. */
export async function executeDelivery(x: Executor, delivery: JobDelivery): Promise<JobOutcome> {
  // A payload that names no run is still findable by the run its job id names.
  const named = runIdOfJobId(delivery.id);
  if (delivery.undecodable !== undefined) {
    const error = new QueueError(`job payload is invalid: ${delivery.undecodable}`, {
      reason: 'invalid-job',
      ...(named !== undefined && { runId: named }),
    });
    return rejectPayload(x, error, undefined, named);
  }
  let job: RunJob;
  try {
    job = parseJob(delivery.data, x.limits);
  } catch (error) {
    return rejectPayload(x, error, delivery.data, named);
  }
  const carrier = job.traceContext;
  if (x.continueTrace !== undefined && carrier !== undefined)
    return x.continueTrace(carrier, () => deliver(x, job, delivery));
  return deliver(x, job, delivery);
}

async function readRecord(store: RunStore, runId: string): Promise<RunRecord | undefined> {
  const row = await store.getRun(runId);
  return row === undefined ? undefined : decodeRun(row);
}

function settledOutcome(record: RunRecord): JobOutcome {
  return {
    type: 'done',
    value:
      record.status === 'paused'
        ? { runId: record.id, status: 'paused', pending: jsonOf(record.pending) }
        : { runId: record.id, status: record.status, output: jsonOf(record.output) },
  };
}

async function deliver(x: Executor, job: RunJob, delivery: JobDelivery): Promise<JobOutcome> {
  let plan: DeliveryPlan;
  try {
    plan = planDelivery(job, await readRecord(x.store, job.runId), x.store.now());
  } catch (error) {
    return failureOutcome(x, job, delivery, error, undefined);
  }
  if (plan.type === 'later') return { type: 'later', at: plan.at, handover: false };
  if (plan.type === 'fail') {
    await x.feed.end(job.runId, {
      type: 'failed',
      error: describeFailure(plan.error),
      at: x.now(),
    });
    return { type: 'fail', error: plan.error, retry: false };
  }
  if (plan.type === 'settled') {
    const cancelled =
      plan.record.status === 'paused' ? await x.control.cancelReason(job.runId) : undefined;
    if (cancelled !== undefined) return endCancelled(x, job, plan.record, cancelled);
    return settledOutcome(plan.record);
  }
  // Past its deadline: a run that never started is rejected; a started one is run with 1 ms
  // left, so it fails at its own stage and the store records how far it got.
  if (job.deadline !== undefined && x.now() >= job.deadline && plan.mode === 'start') {
    const error = new QueueError(
      `run "${job.runId}" reached its deadline (${new Date(job.deadline).toISOString()}) before a worker could run it: give it a later deadline or add workers`,
      { reason: 'deadline-exceeded', runId: job.runId },
    );
    return rejectPayload(x, error, job);
  }
  let agent: QueueAgent;
  try {
    agent = await agentFor(x.agents, {
      runId: job.runId,
      agent: job.agent,
      kind: job.kind,
      deps: job.deps,
      attempt: delivery.attempt,
    });
  } catch (error) {
    return rejectPayload(x, error, job);
  }
  // Registered before the cancellation check: a request published from now on reaches it, one
  // published before is read with the segment's first event.
  const run = x.active.begin(job.runId);
  try {
    const at = x.now();
    const cancelled = await x.feed.begin(
      job.runId,
      plan.mode === 'continue'
        ? { type: 'recovered', runId: job.runId, worker: x.workerId, at }
        : {
            type: 'started',
            runId: job.runId,
            kind: job.kind,
            attempt: delivery.attempt,
            worker: x.workerId,
            at,
          },
    );
    if (cancelled !== undefined && plan.mode === 'start')
      return await endCancelled(x, job, undefined, cancelled);
    // Cancelled while interrupted or paused: run it with the signal already aborted, so the
    // store records how it ended (evidence kept) before the job fails.
    if (cancelled !== undefined) run.cancel(cancelled);
    return await execute(x, job, delivery, agent, plan.mode, run);
  } finally {
    run.end();
  }
}

function remaining(x: Executor, job: RunJob): number | undefined {
  const limits = [job.options.timeout, x.timeout];
  if (job.deadline !== undefined) limits.push(Math.max(1, job.deadline - x.now()));
  const set = limits.filter((v): v is number => v !== undefined && v > 0);
  return set.length === 0 ? undefined : Math.min(...set);
}

async function execute(
  x: Executor,
  job: RunJob,
  delivery: JobDelivery,
  agent: QueueAgent,
  mode: 'start' | 'resume' | 'continue',
  run: ActiveRun,
): Promise<JobOutcome> {
  const { runId } = job;
  const timeout = remaining(x, job);
  const options = {
    deps: job.deps,
    signal: run.signal,
    store: x.store,
    // The run's owner (a start) or the requester's (a decision, a recovery): the store checks it.
    ...(job.owner !== undefined && { owner: job.owner }),
    observer: (event: Parameters<typeof feedRunEvent>[0]) => {
      x.feed.push(runId, { type: 'event', event: feedRunEvent(event) });
    },
    ...(timeout !== undefined && { timeout }),
    ...(job.options.turnTimeout !== undefined && { turnTimeout: job.options.turnTimeout }),
    ...(job.options.modelSettings !== undefined && { modelSettings: job.options.modelSettings }),
  };
  const onDelta: DeltaHandler | undefined =
    (job.options.stream ?? true) && agent.streaming
      ? (delta) => {
          x.feed.pushDelta(runId, delta);
        }
      : undefined;
  try {
    let result: Result<unknown>;
    if (mode === 'start') {
      const start = {
        ...options,
        runId,
        ...(job.conversation !== undefined && { conversation: job.conversation }),
      };
      if (onDelta === undefined) result = await agent.run(job.prompt ?? '', start);
      else {
        // Deltas go to the feed from the run's own call (no reader, no promise per delta), and
        // the stream, which nothing iterates, keeps none of them.
        const stream = agent.runStream(job.prompt ?? '', { ...start, onDelta });
        if (stream instanceof RunStreamFeed) stream.discard();
        result = await stream.result;
      }
    } else if (mode === 'resume') {
      result = await agent.resume(runId, job.results ?? {}, {
        ...options,
        ...(onDelta !== undefined && { onDelta }),
      });
    } else {
      result = await agent.resumeRun(runId, {
        ...options,
        ...(onDelta !== undefined && { onDelta }),
      });
    }
    const end = x.now();
    if (result.pending !== undefined) {
      await x.feed.end(runId, { type: 'paused', pending: result.pending, at: end });
      return { type: 'done', value: { runId, status: 'paused', pending: jsonOf(result.pending) } };
    }
    const output = jsonOf(result.output);
    await x.feed.end(runId, {
      type: 'completed',
      output,
      usage: result.usage,
      requests: result.requests,
      toolCalls: result.toolCalls,
      at: end,
    });
    return { type: 'done', value: { runId, status: 'completed', output } };
  } catch (error) {
    return failureOutcome(x, job, delivery, error, run);
  }
}
