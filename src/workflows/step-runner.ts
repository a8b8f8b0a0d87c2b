import { defaultBackoff } from '../core/index';
import type { StepContext, StepOptions } from './context';
import type { Execution } from './execution';
import { toJsonValue } from './json-value';
import type { StepKind, StepRecord } from './step-record';
import { Suspension } from './suspension';
import { validated } from './validate';
import { WorkflowError } from './workflow-error';

/** What a kind of step does. Internal. */
export interface StepSpec<T> {
  readonly name: string;
  readonly kind: StepKind;
  readonly options?: StepOptions<T>;
  /** Produces the value (may throw a `Suspension`). */
  execute(ctx: StepContext, record: StepRecord): Promise<T>;
  /** The checkpoint of `value` (default the value itself). */
  toOutput?(value: T): unknown;
  /** The value a completed record replays (default its output, validated by `options.output`). */
  replay?(record: StepRecord): Promise<T>;
}

/**
 * Runs one step through `exec`: a completed checkpoint is replayed (the body is not called), a
 * failed one replays its failure, anything else (new, interrupted, resumed) runs with retries.
 * Internal.
 */
export function runStep<T>(exec: Execution, spec: StepSpec<T>): Promise<T> {
  try {
    if (exec.closed)
      throw new WorkflowError(
        'step-failed',
        `step ${JSON.stringify(spec.name)} was called after workflow run ${exec.runId} ended its execution; await every step inside run`,
        { runId: exec.runId },
      );
    if (exec.signal.aborted) throw exec.signal.reason;
    const key = exec.allocate(spec.name);
    const record = exec.records.get(key);
    if (record !== undefined && (record.name !== spec.name || record.kind !== spec.kind))
      exec.raise(
        new WorkflowError(
          'diverged',
          `workflow run ${exec.runId} diverged from its code at step ${key}: it was a ${record.kind} ${JSON.stringify(record.name)}, the code now calls a ${spec.kind} ${JSON.stringify(spec.name)}; finish old runs with the old code, or fork them`,
          { runId: exec.runId, step: key },
        ),
      );
    if (record?.status === 'completed') return exec.track(replay(exec, spec, record));
    if (record?.status === 'failed') {
      emitReplayed(exec, record);
      const cause = Object.assign(new Error(record.error?.message ?? 'failed'), {
        name: record.error?.name ?? 'Error',
      });
      throw stepFailed(exec, key, cause);
    }
    if (
      record?.status === 'suspended' &&
      spec.kind === 'step' &&
      record.resumeData === undefined &&
      !exec.hasPending(key)
    ) {
      // Still waiting for its decision: suspend again without running the body.
      const suspension = new Suspension(key, record.waiting ?? { kind: 'decision' });
      exec.suspensions.push({ step: key, ...suspension.waiting });
      throw suspension;
    }
    return exec.track(attempts(exec, spec, exec.begin(key, spec.name, spec.kind, record)));
  } catch (error) {
    return Promise.reject(error instanceof Error ? error : new Error(String(error)));
  }
}

async function replay<T>(exec: Execution, spec: StepSpec<T>, record: StepRecord): Promise<T> {
  const where = { runId: exec.runId, step: record.key };
  const value =
    spec.replay !== undefined
      ? await spec.replay(record)
      : await validated(
          spec.options?.output,
          record.output,
          `step ${record.key}'s checkpointed output`,
          where,
        );
  emitReplayed(exec, record);
  return value;
}

function emitReplayed(exec: Execution, record: StepRecord): void {
  exec.emit({
    kind: 'step_replayed',
    runId: exec.runId,
    workflow: exec.setup.definition.name,
    step: record.key,
    attempt: record.attempt,
    at: exec.setup.store.now(),
  });
}

async function attempts<T>(exec: Execution, spec: StepSpec<T>, record: StepRecord): Promise<T> {
  const { options = {} } = spec;
  const retries = Math.max(0, Math.floor(options.retries ?? 0));
  const backoff = options.backoff ?? defaultBackoff;
  const where = { runId: exec.runId, step: record.key };
  const base = { runId: exec.runId, workflow: exec.setup.definition.name, step: record.key };
  let interrupted = exec.interrupted.delete(record.key);
  for (let tries = 0; ; tries++) {
    record.attempt += 1;
    exec.active.add(record);
    await exec.checkpoint();
    exec.emit({
      kind: 'step_started',
      ...base,
      attempt: record.attempt,
      at: exec.setup.store.now(),
    });
    try {
      const value = await withTimeout(options.timeout, exec.signal, (signal) =>
        spec.execute(stepContext(exec, record, signal, interrupted), record),
      );
      const raw = spec.toOutput === undefined ? value : spec.toOutput(value);
      const output =
        raw === undefined ? undefined : toJsonValue(raw, `step ${record.key}'s output`, where);
      const checked = await validated(options.output, output, `step ${record.key}'s output`, where);
      record.status = 'completed';
      record.endedAt = exec.setup.store.now();
      if (output === undefined) delete record.output;
      else record.output = output;
      exec.active.delete(record);
      await exec.checkpoint();
      exec.emit({
        kind: 'step_completed',
        ...base,
        attempt: record.attempt,
        at: exec.setup.store.now(),
      });
      return spec.toOutput === undefined ? checked : value;
    } catch (error) {
      if (error instanceof Suspension) {
        record.status = 'suspended';
        record.waiting = error.waiting;
        exec.active.delete(record);
        exec.suspensions.push({ step: record.key, ...error.waiting });
        await exec.checkpoint();
        throw error;
      }
      if (exec.passesThrough(error)) {
        exec.active.delete(record);
        throw error;
      }
      interrupted = false;
      const last = tries >= retries || WorkflowError.isKind(error, 'not-json');
      exec.emit({
        kind: 'step_failed',
        ...base,
        attempt: record.attempt,
        error: errorFields(error),
        retrying: !last,
        at: exec.setup.store.now(),
      });
      if (!last) {
        await exec.setup.sleep(Math.max(0, backoff(tries + 1)), exec.signal);
        continue;
      }
      record.status = 'failed';
      record.endedAt = exec.setup.store.now();
      record.error = errorFields(error);
      exec.active.delete(record);
      await exec.checkpoint();
      throw WorkflowError.isKind(error, 'not-json') ? error : stepFailed(exec, record.key, error);
    }
  }
}

function stepContext(
  exec: Execution,
  record: StepRecord,
  signal: AbortSignal,
  interrupted: boolean,
): StepContext {
  let suspended = false;
  return {
    runId: exec.runId,
    step: record.key,
    attempt: record.attempt,
    signal,
    interrupted,
    suspend: async <S>(request: Parameters<StepContext['suspend']>[0] = {}) => {
      if (suspended)
        throw new WorkflowError(
          'invalid-input',
          `step ${record.key} called ctx.suspend twice; suspend at most once per step`,
          {
            runId: exec.runId,
            step: record.key,
          },
        );
      suspended = true;
      const waiting = {
        kind: 'decision' as const,
        ...(request.reason !== undefined && { reason: request.reason }),
        ...(request.payload !== undefined && {
          payload: toJsonValue(request.payload, `step ${record.key}'s suspend payload`, {
            runId: exec.runId,
            step: record.key,
          }),
        }),
      };
      const where = { runId: exec.runId, step: record.key };
      const given = exec.takePending(record.key);
      if (given !== undefined) {
        let value: S;
        try {
          value = (await validated(
            request.schema,
            given,
            `the data resuming step ${record.key}`,
            where,
          )) as S;
        } catch (error) {
          return exec.raise(WorkflowError.is(error) ? error : stepFailed(exec, record.key, error));
        }
        record.resumeData = given;
        record.waiting = waiting;
        await exec.checkpoint();
        return value;
      }
      if (record.resumeData !== undefined)
        return (await validated(
          request.schema,
          record.resumeData,
          `step ${record.key}'s recorded resume data`,
          where,
        )) as S;
      throw new Suspension(record.key, waiting);
    },
  };
}

/** Runs `body` with a signal that aborts with `outer` or after `timeout` ms (the attempt fails). */
async function withTimeout<T>(
  timeout: number | undefined,
  outer: AbortSignal,
  body: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  if (timeout === undefined) return body(outer);
  const controller = new AbortController();
  const abort = (): void => {
    controller.abort(outer.reason);
  };
  outer.addEventListener('abort', abort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = new Error(`the step's attempt timed out after ${String(timeout)} ms`);
      error.name = 'TimeoutError';
      controller.abort(error);
      reject(error);
    }, timeout);
    timer.unref();
  });
  try {
    return await Promise.race([body(controller.signal), expired]);
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', abort);
  }
}

function errorFields(error: unknown): { name: string; message: string } {
  return error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };
}

function stepFailed(exec: Execution, key: string, cause: unknown): WorkflowError {
  const message = cause instanceof Error ? cause.message : String(cause);
  return new WorkflowError(
    'step-failed',
    `step ${key} of workflow run ${exec.runId} failed: ${message}`,
    {
      runId: exec.runId,
      step: key,
      cause,
    },
  );
}
