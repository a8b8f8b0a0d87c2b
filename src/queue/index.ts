/**
 * `golem/queue`: distributed runs on BullMQ over Redis, on top of a run store. `runQueue` enqueues
 * runs (an agent name, a prompt, JSON deps) and returns their ids at once, streams their progress
 * from any process, takes decisions for paused runs and cancels; `runWorker` executes them with a
 * registry of agents, any number of workers on any machines, recovering a dead worker's runs from
 * their checkpoints without repeating a completed tool. Needs the optional peers `bullmq` and
 * `ioredis` (checked first: a `missing-peer` `ConfigError` names the `npm install` command).
 * @packageDocumentation
 */
import './peers';

export { runQueue, RunQueue } from './run-queue';
export type { RunQueueOptions, EnqueuedRun, SegmentOptions } from './submit';
export type { AgentRef, EnqueueOptions } from './enqueue-input';
export { runWorker, RunWorker } from './run-worker';
export type { RunWorkerOptions, LaneOptions } from './run-worker';
export type { StalledJobs, JobRetention } from './bullmq-engine';
export { workflowQueue, WorkflowQueue } from './workflow-queue';
export type {
  WorkflowQueueOptions,
  QueueStartOptions,
  QueuedWorkflowRun,
  QueuedDelivery,
} from './workflow-queue';
export { workflowWorker, WorkflowWorker } from './workflow-worker';
export type { WorkflowWorkerOptions } from './workflow-worker';
export { WORKFLOW_JOB_VERSION } from './workflow-job';
export type { WorkflowJob, WorkflowJobKind } from './workflow-job';
export type { TraceContinuation } from './execute';
export type { QueueAgent, AgentJobInfo, AgentFactory, AgentEntry, AgentRegistry } from './registry';
export type { RunFeedEvent, FeedRunEvent, FeedFailure, FeedEntry } from './feed-events';
export type { FeedReadOptions } from './feed-reader';
export type { FeedRetention } from './redis-feed';
export type { RedisConnection, ErrorListener } from './redis';
export type {
  QueuedRunState,
  RunStatusReport,
  RunOutcome,
  CancelResult,
  CancelOptions,
} from './run-status';
export type { OwnerScope } from './run-access';
export { QueueError } from './queue-error';
export type { QueueErrorReason, QueueErrorInit } from './queue-error';
export { JOB_VERSION } from './job';
export type {
  RunJob,
  RunJobKind,
  RunJobOptions,
  JobDecisions,
  QueueLimits,
  ResolvedLimits,
} from './job';
export type {
  SubmittedJob,
  JobState,
  JobDelivery,
  JobOutcome,
  JobHandler,
  JobProducerPort,
  JobConsumerPort,
  RunFeedPort,
  RunControlPort,
  RunInfo,
} from './port';
export { writeFeedSse, formatFeedEvent } from './sse';
export type { SseTarget } from './sse';
