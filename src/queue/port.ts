import type { JsonValue } from '../core/kit/json';
import type { FeedEntry, RunFeedEvent } from './feed-events';
import type { RunJob } from './job';

/**
 * The queue port: what golem needs from a distributed job engine, and nothing more. The BullMQ
 * adapter implements it; another engine (Temporal, pg-boss) would implement the same four
 * interfaces — durable jobs with ids, delayed redelivery and crash recovery; golem itself keeps
 * the run's state in the run store and decides what a delivery does.
 */

/** A job golem hands to the engine. */
export interface SubmittedJob {
  /** The lane (a queue with its own rate limit); `default` unless routed. */
  readonly lane: string;
  /** Deterministic: submitting the same id twice adds one job. */
  readonly id: string;
  readonly data: RunJob;
  /** Not before this time (ms since the epoch). */
  readonly notBefore?: number;
  /** Deliveries allowed for failures outside the run's own budget (the store unreachable). */
  readonly attempts: number;
  /** First wait before such a retry, doubling, ms. */
  readonly backoffMs: number;
  /** Lower runs first (BullMQ semantics); default none. */
  readonly priority?: number;
  /** Whether another producer may add the same id now (check which data won). */
  readonly verify: boolean;
}

/** Where a job is. */
export type JobState = 'waiting' | 'delayed' | 'active' | 'completed' | 'failed' | 'unknown';

/** One delivery of a job to a worker. `data` is untrusted: golem validates it. */
export interface JobDelivery {
  readonly lane: string;
  readonly id: string;
  readonly data: unknown;
  /**
   * Set when the engine could not decode the stored payload at all (not JSON): why, without its
   * content. `data` is then meaningless and the job is failed as `invalid-job`.
   */
  readonly undecodable?: string;
  /** 1-based delivery number for retries (stalled redeliveries do not count). */
  readonly attempt: number;
  /** Deliveries allowed. */
  readonly attempts: number;
}

/** What a handler decided: done (with the job's value), failed (retry or not), or later. */
export type JobOutcome =
  | { readonly type: 'done'; readonly value: JsonValue }
  | { readonly type: 'fail'; readonly error: Error; readonly retry: boolean }
  | { readonly type: 'later'; readonly at: number; readonly handover: boolean };

/** Handles one delivery. */
export type JobHandler = (delivery: JobDelivery) => Promise<JobOutcome>;

/** The producer side of a job engine. */
export interface JobProducerPort {
  /** Adds the job; `added: false` (with the existing job's data) when the id exists (checked when `verify`). */
  submit(job: SubmittedJob): Promise<{ added: boolean; existing: unknown }>;
  /** The data of the job with this id, or undefined when there is none. */
  find(lane: string, id: string): Promise<{ data: unknown } | undefined>;
  /** Removes a job that has not started; resolves whether it did. */
  withdraw(lane: string, id: string): Promise<boolean>;
  /** The job's state, or undefined when there is no such job. */
  state(lane: string, id: string): Promise<JobState | undefined>;
  close(): Promise<void>;
}

/** The consumer side of a job engine: delivers jobs of its lanes to `handler`. */
export interface JobConsumerPort {
  start(handler: JobHandler): Promise<void>;
  /** Stops taking jobs; waits for active ones unless `force`. */
  close(force: boolean): Promise<void>;
}

/** A run's ordered, bounded event feed, readable later and live. */
export interface RunFeedPort {
  /**
   * Appends `events`, in order, atomically, and resolves with the run's cancellation reason if it
   * was cancelled (so a worker starting a segment learns it in the same round trip). Appends made
   * one after another are applied in that order even when the earlier has not resolved yet (the
   * Redis feed sends them over one connection): workers do not wait between batches.
   */
  append(runId: string, events: readonly RunFeedEvent[]): Promise<string | undefined>;
  /**
   * Optional: {@link append} for several runs at once, in one round trip; one result per batch, in
   * order, as `append` would resolve. Workers send every run's events of an event-loop turn
   * together through it.
   */
  appendMany?(
    batches: readonly { readonly runId: string; readonly events: readonly RunFeedEvent[] }[],
  ): Promise<string | undefined>[];
  /** Entries after `after` (a cursor), oldest first. */
  read(runId: string, after?: string): Promise<FeedEntry[]>;
  /** Calls `onEntry` for every entry appended from now on; resolves with the undo once listening. */
  listen(runId: string, onEntry: (entry: FeedEntry) => void): Promise<() => Promise<void>>;
}

/** Cancellation requests and which job carries a run. */
export interface RunControlPort {
  /** Marks the run cancelled (kept `ttlMs`) and tells every worker. */
  requestCancel(runId: string, reason: string): Promise<void>;
  /** The reason the run was cancelled, if it was. */
  cancelReason(runId: string): Promise<string | undefined>;
  /** Calls `handler` for every cancellation request; resolves with the undo once listening. */
  onCancel(handler: (runId: string, reason: string) => void): Promise<() => Promise<void>>;
  /** Records what the producer knows of the run: the job that carries it, its agent and deps. */
  setRunInfo(runId: string, info: RunInfo): Promise<void>;
  /** What {@link setRunInfo} recorded, if it is still kept. */
  runInfo(runId: string): Promise<RunInfo | undefined>;
}

/** What a producer keeps about a run between its segments (so a decision needs only the run id). */
export interface RunInfo {
  /** The lane and id of the job that carries the run now. */
  readonly lane: string;
  readonly jobId: string;
  /** The registry name of the agent. */
  readonly agent: string;
  /** The run's deps as JSON text, reused when it resumes. */
  readonly deps?: string | undefined;
  /** Who the run belongs to (its `owner`), checked before it is stored. */
  readonly owner?: string | undefined;
}
