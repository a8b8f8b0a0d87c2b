import { isRecord } from '../core/kit/guards';
import { timeoutProblem } from '../core/kit/timeouts';
import type { ResolvedLimits } from './job';
import { resolveLimits } from './job';
import { QueueError } from './queue-error';
import { checkConnection, checkName } from './redis';
import type { FeedRetention } from './redis-feed';

function invalid(message: string): QueueError {
  return new QueueError(message, { reason: 'invalid-options' });
}

function integer(value: unknown, name: string, min: number): void {
  if (value !== undefined && (!Number.isSafeInteger(value) || (value as number) < min))
    throw invalid(`${name} must be an integer ≥ ${min}, got ${JSON.stringify(value)}`);
}

function ms(value: unknown, name: string): void {
  if (value === undefined) return;
  const problem = timeoutProblem(value);
  if (problem !== undefined) throw invalid(`${name} ${problem}, got ${JSON.stringify(value)}`);
}

function fn(value: unknown, name: string): void {
  if (value !== undefined && typeof value !== 'function')
    throw invalid(`${name} must be a function, got ${typeof value}`);
}

/** Feed retention, checked (`invalid-options`). Internal. */
export function checkFeedRetention(feed: FeedRetention | undefined): void {
  if (feed === undefined) return;
  if (!isRecord(feed)) throw invalid('feed must be { maxLength?, ttlMs? }');
  integer(feed.maxLength, 'feed.maxLength', 1);
  integer(feed.ttlMs, 'feed.ttlMs', 1);
}

function checkStore(store: unknown): void {
  if (!isRecord(store) || typeof store.getRun !== 'function')
    throw invalid(
      'store must be a run store (sqliteStore, postgresStore, memoryStore): the one the workers checkpoint in',
    );
}

/** What `runWorker` checks beside its lanes, agents and limits (see `RunWorkerOptions`). */
interface WorkerOptionsShape {
  connection: unknown;
  store: unknown;
  timeout?: unknown;
  stalled?: unknown;
  jobs?: unknown;
  feed?: unknown;
  continueTrace?: unknown;
  onError?: unknown;
  clock?: unknown;
}

/**
 * Checks the options of `runWorker` its constructor does not check itself, before anything is
 * opened (`invalid-options`). Internal.
 */
export function checkWorkerOptions(options: WorkerOptionsShape): void {
  if (!isRecord(options))
    throw invalid('runWorker needs options: { connection: "redis://…", store, agents }');
  checkConnection(options.connection);
  checkStore(options.store);
  ms(options.timeout, 'timeout');
  if (options.stalled !== undefined) {
    const stalled = options.stalled;
    if (!isRecord(stalled))
      throw invalid('stalled must be { lockDuration?, interval?, maxCount? }');
    integer(stalled.lockDuration, 'stalled.lockDuration', 1);
    integer(stalled.interval, 'stalled.interval', 1);
    integer(stalled.maxCount, 'stalled.maxCount', 0);
  }
  if (options.jobs !== undefined && !isRecord(options.jobs))
    throw invalid('jobs must be { completed?, failed? } (BullMQ retention)');
  checkFeedRetention(options.feed as FeedRetention | undefined);
  fn(options.continueTrace, 'continueTrace');
  fn(options.onError, 'onError');
  fn(options.clock, 'clock');
}

/** What `runQueue` checks, in the shape `RunQueueOptions` has (kept here to avoid a cycle). */
interface QueueOptionsShape {
  connection: unknown;
  store: unknown;
  name?: unknown;
  prefix?: unknown;
  route?: unknown;
  defaults?: unknown;
  attempts?: unknown;
  backoffMs?: unknown;
  limits?: unknown;
  traceContext?: unknown;
  feed?: unknown;
  jobs?: unknown;
  infoTtlMs?: unknown;
  onError?: unknown;
  clock?: unknown;
}

/**
 * Checks every option of `runQueue` before anything is opened: a refused configuration throws an
 * `invalid-options` `QueueError` and leaves no connection behind (the process can exit). Returns
 * the key names and the limits. Internal.
 */
export function checkQueueOptions(options: QueueOptionsShape): {
  prefix: string;
  name: string;
  limits: ResolvedLimits;
} {
  if (!isRecord(options))
    throw invalid('runQueue needs options: { connection: "redis://…", store }');
  checkConnection(options.connection);
  checkStore(options.store);
  const prefix = checkName(options.prefix ?? 'golem', 'prefix');
  const name = checkName(options.name ?? 'golem', 'name');
  if (options.limits !== undefined && !isRecord(options.limits))
    throw invalid('limits must be { promptBytes?, depsBytes?, jobBytes? }');
  const limits = resolveLimits(options.limits);
  integer(options.attempts, 'attempts', 1);
  integer(options.backoffMs, 'backoffMs', 0);
  integer(options.infoTtlMs, 'infoTtlMs', 1);
  if (options.defaults !== undefined) {
    const defaults = options.defaults;
    if (!isRecord(defaults)) throw invalid('defaults must be { timeout?, deadlineIn?, stream? }');
    ms(defaults.timeout, 'defaults.timeout');
    ms(defaults.deadlineIn, 'defaults.deadlineIn');
    if (defaults.stream !== undefined && typeof defaults.stream !== 'boolean')
      throw invalid('defaults.stream must be a boolean');
  }
  checkFeedRetention(options.feed as FeedRetention | undefined);
  if (options.jobs !== undefined && !isRecord(options.jobs))
    throw invalid('jobs must be { completed?, failed? } (BullMQ retention)');
  fn(options.route, 'route');
  fn(options.traceContext, 'traceContext');
  fn(options.onError, 'onError');
  fn(options.clock, 'clock');
  return { prefix, name, limits };
}
