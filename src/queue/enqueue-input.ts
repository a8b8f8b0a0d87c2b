import { INTERRUPTED_CALL_REASON } from '../core/durable/interrupted-call';
import type { DeferredResults, PendingToolCalls } from '../core/engine/deferred-types';
import type { JsonObject, JsonValue } from '../core/kit/json';
import type { ModelSettings } from '../core/contract/request';
import { timeoutProblem } from '../core/kit/timeouts';
import type { JobDecisions, ResolvedLimits, RunJobOptions } from './job';
import { isRunId } from './job';
import { checkSize, plainJson } from './plain-json';
import { QueueError } from './queue-error';

/** An agent as `enqueue` names it: its registry name, or anything with a `name` (an Agent, a class). */
export type AgentRef = string | { readonly name: string };

/** Options of one queued run (everything a job carries is JSON). */
export interface EnqueueOptions {
  /** The run's dependencies: plain JSON only, checked here (`invalid-deps`, `too-large`). */
  deps?: JsonValue;
  /** Continue this stored conversation (created if new). */
  conversation?: string;
  /** The run's id (default a random UUID); must be new. */
  runId?: string;
  /** Execution deadline of each run segment, ms. */
  timeout?: number;
  /** Deadline of each model call, ms (0 = none). */
  turnTimeout?: number;
  /** Merged over the agent's model settings (JSON). */
  modelSettings?: ModelSettings;
  /** Publish model fragments to subscribers; default true when the agent's model streams. */
  stream?: boolean;
  /**
   * When the whole run must be over (a `Date` or ms since the epoch), queue time included: a job
   * still waiting then is failed with `deadline-exceeded` without running.
   */
  deadline?: Date | number;
  /** The lane (rate-limited queue) to use instead of the queue's routing. */
  lane?: string;
  /** BullMQ priority: lower runs first. */
  priority?: number;
  /** Start no sooner than this many ms from now. */
  delay?: number;
  /** The trace context to carry (default: the queue's `traceContext()` hook, if any). */
  traceContext?: Record<string, string>;
  /**
   * Who the run belongs to (a tenant or user key, e.g. the authenticated user's id): stored with
   * the job and the run (and a conversation it creates). Calls that pass an `owner` — `status`,
   * `result`, `events`, `decide`, `recover`, `cancel` — see only that owner's runs.
   */
  owner?: string;
}

function input(message: string): QueueError {
  return new QueueError(message, { reason: 'invalid-input' });
}

/** The agent's registry name. */
export function agentName(agent: AgentRef): string {
  const name = typeof agent === 'string' ? agent : (agent as { name?: unknown } | null)?.name;
  if (typeof name !== 'string' || name === '' || name.length > 200)
    throw input(
      'agent must be a registered agent name (1–200 characters), an Agent, or an agent class',
    );
  return name;
}

function positiveMs(value: unknown, name: string): number | undefined {
  if (value === undefined) return undefined;
  const problem = timeoutProblem(value);
  if (problem !== undefined) throw input(`${name} ${problem}, got ${JSON.stringify(value)}`);
  return value as number;
}

/** The JSON options a start job carries, validated. */
export function jobOptions(options: EnqueueOptions): RunJobOptions {
  const out: RunJobOptions = {};
  const timeout = positiveMs(options.timeout, 'timeout');
  if (timeout !== undefined) out.timeout = timeout;
  const turnTimeout = positiveMs(options.turnTimeout, 'turnTimeout');
  if (turnTimeout !== undefined) out.turnTimeout = turnTimeout;
  if (options.modelSettings !== undefined) {
    const text = plainJson(
      options.modelSettings,
      'modelSettings',
      'invalid-input',
      'send plain JSON',
    );
    out.modelSettings = JSON.parse(text) as JsonObject;
  }
  if (options.stream !== undefined) {
    if (typeof options.stream !== 'boolean') throw input('stream must be a boolean');
    out.stream = options.stream;
  }
  return out;
}

/** `deps` as JSON text (checked), or undefined. */
export function depsJson(deps: unknown, limits: ResolvedLimits): string | undefined {
  if (deps === undefined) return undefined;
  const text = plainJson(
    deps,
    'deps',
    'invalid-deps',
    'a queued run carries plain JSON deps only; give workers their clients and services through their agents, container or Nest module',
  );
  checkSize(text, 'deps', limits.depsBytes, 'limits.depsBytes');
  return text;
}

/** Checks the prompt and the ids of a start. */
export function checkStart(
  prompt: unknown,
  options: EnqueueOptions,
  limits: ResolvedLimits,
): string {
  if (typeof prompt !== 'string') throw input(`prompt must be a string, got ${typeof prompt}`);
  checkSize(prompt, 'prompt', limits.promptBytes, 'limits.promptBytes');
  for (const key of ['conversation', 'runId'] as const)
    if (options[key] !== undefined && !isRunId(options[key]))
      throw input(`${key} must be 1–200 printable ASCII characters without spaces`);
  return prompt;
}

/** The absolute deadline, checked to be in the future. */
export function deadlineOf(deadline: Date | number | undefined, now: number): number | undefined {
  if (deadline === undefined) return undefined;
  const at = deadline instanceof Date ? deadline.getTime() : deadline;
  if (typeof at !== 'number' || !Number.isFinite(at))
    throw input('deadline must be a Date or ms since the epoch');
  if (at <= now)
    throw new QueueError(`deadline ${new Date(at).toISOString()} has passed already`, {
      reason: 'deadline-exceeded',
    });
  return at;
}

function entries<V>(value: Record<string, V> | Map<string, V> | undefined): [string, V][] {
  if (value === undefined) return [];
  return value instanceof Map ? [...value.entries()] : Object.entries(value);
}

/**
 * Decisions as a job carries them, checked against the paused run's calls: every pending call
 * resolved exactly once (approvals for approval calls, text for external ones — and either for a
 * call interrupted by a crash, whose result the application may have checked), nothing else.
 */
export function checkDecisions(
  runId: string,
  pending: PendingToolCalls,
  results: DeferredResults,
): JobDecisions {
  const approvals = entries(results.approvals);
  const external = entries(results.external);
  const wanted = new Map<string, 'approval' | 'external' | 'either'>();
  // A call in flight when its process died is asked about as an approval, but what happened is
  // also an answer: its result, supplied as external text, settles it without running it again.
  for (const c of pending.approvals)
    wanted.set(c.callId, c.reason === INTERRUPTED_CALL_REASON ? 'either' : 'approval');
  for (const c of pending.external) wanted.set(c.callId, 'external');
  const seen = new Set<string>();
  const fail = (problem: string): QueueError =>
    new QueueError(`decisions for run "${runId}": ${problem}`, {
      reason: 'invalid-decision',
      runId,
    });
  for (const [id, kind] of [
    ...approvals.map(([id]) => [id, 'approval'] as const),
    ...external.map(([id]) => [id, 'external'] as const),
  ]) {
    if (seen.has(id)) throw fail(`call "${id}" is resolved twice`);
    seen.add(id);
    const want = wanted.get(id);
    if (want === undefined)
      throw fail(`call "${id}" is not pending (pending: ${[...wanted.keys()].join(', ')})`);
    if (want !== kind && want !== 'either')
      throw fail(
        `call "${id}" waits for ${want === 'approval' ? 'an approval' : 'an external result'}`,
      );
  }
  const missing = [...wanted.keys()].filter((id) => !seen.has(id));
  if (missing.length > 0)
    throw fail(`every pending call needs a decision; missing ${missing.join(', ')}`);
  const out: JobDecisions = {};
  if (approvals.length > 0)
    out.approvals = Object.fromEntries(
      approvals.map(([id, a]) => {
        const { approved, reason } = a as { approved?: unknown; reason?: unknown };
        if (typeof approved !== 'boolean' || (reason !== undefined && typeof reason !== 'string'))
          throw fail(`approval of "${id}" must be { approved: boolean, reason?: string }`);
        return [id, reason === undefined ? { approved } : { approved, reason }];
      }),
    );
  if (external.length > 0)
    out.external = Object.fromEntries(
      external.map(([id, text]) => {
        if (typeof text !== 'string') throw fail(`the external result of "${id}" must be text`);
        return [id, text];
      }),
    );
  return out;
}
