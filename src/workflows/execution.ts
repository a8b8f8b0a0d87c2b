import type { JsonValue, Sleep } from '../core/index';
import type { WorkflowContext } from './context';
import type { WorkflowDefinition } from './definition';
import type { WorkflowEvent } from './events';
import type { WorkflowRunInfo } from './run-info';
import type { RunWriter } from './run-writer';
import { encodeSteps } from './row-codec';
import type { StepRecord, WaitingInfo } from './step-record';
import type { StoredWorkflowRun, WorkflowStore } from './store-port';
import { Suspension } from './suspension';
import { WorkflowError } from './workflow-error';

/** How the workflow's `run` settled. Internal. */
export type Outcome = { ok: true; value: unknown } | { ok: false; error: unknown };

/** What one execution of a run needs. Internal. */
export interface ExecutionSetup {
  readonly store: WorkflowStore;
  readonly definition: WorkflowDefinition;
  readonly writer: RunWriter;
  /** The run as claimed (decoded). */
  readonly info: WorkflowRunInfo;
  /** The row before the claim: restored when resume data turns out invalid. */
  readonly before: StoredWorkflowRun;
  /** Data a resume or signal gives one step in this execution (recorded once validated). */
  readonly pending?: { readonly key: string; readonly data: JsonValue };
  readonly emit: (event: WorkflowEvent) => void;
  readonly sleep: Sleep;
  /** The time timers compare against (the store clock, or later when `wakeDue({ now })` says so). */
  readonly now: () => number;
  readonly resumed: boolean;
  /** Builds the `wf` the workflow's `run` gets (the steps, bound to this execution). */
  readonly context: (execution: Execution) => WorkflowContext;
}

/**
 * One execution of a workflow run: runs the definition's `run` from the top with a context whose
 * steps replay their checkpoints (`endExecution` then records how it ended). Internal: the runner
 * claims the run and builds the writer.
 */
export class Execution {
  readonly records = new Map<string, StepRecord>();
  /** Steps of this execution whose body runs now. */
  readonly active = new Set<StepRecord>();
  /** Keys of the steps this execution found running (cut short by a process that stopped). */
  readonly interrupted = new Set<string>();
  readonly suspensions: WaitingInfo[] = [];
  /** An error that ends the run whatever `run` does with it (diverged, step-limit, bad resume data). */
  fatal: WorkflowError | undefined;
  /** Set once `run` settled: later step calls are refused. */
  closed = false;
  private seq = 0;
  private calls = 0;
  private readonly counts = new Map<string, number>();
  private readonly inflight = new Set<Promise<unknown>>();
  private pendingInput: { key: string; data: JsonValue } | undefined;
  private readonly controller = new AbortController();
  private stopWith: WorkflowError | undefined;

  constructor(readonly setup: ExecutionSetup) {
    for (const record of setup.info.steps) {
      this.records.set(record.key, { ...record });
      this.seq = Math.max(this.seq, record.seq);
    }
    this.pendingInput = setup.pending === undefined ? undefined : { ...setup.pending };
    const lost = setup.writer.signal;
    lost.addEventListener('abort', () => {
      if (!this.controller.signal.aborted) this.controller.abort(lost.reason);
    });
  }

  /** The run's id. */
  get runId(): string {
    return this.setup.info.id;
  }

  /** Aborted when this execution lost the run (cancelled, lease lost). */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why this execution was asked to stop (its caller's signal), once it was. */
  get stopped(): WorkflowError | undefined {
    return this.stopWith;
  }

  /**
   * Stops this execution at its next step boundary: no step starts any more, steps in flight see
   * `signal` aborted and are left to re-run; the run stays `running`, its lease given up.
   */
  stop(reason: WorkflowError): void {
    this.stopWith ??= reason;
    if (!this.controller.signal.aborted) this.controller.abort(reason);
  }

  /** The next key of `name` (`name`, `name#2`, …); counts the call against `maxSteps`. */
  allocate(name: string): string {
    if (typeof name !== 'string' || name === '' || name.includes('#'))
      throw new WorkflowError(
        'invalid-input',
        `workflow ${this.setup.definition.name}: step names must be non-empty strings without '#' (got ${JSON.stringify(name)})`,
        { runId: this.runId },
      );
    const { definition } = this.setup;
    if (++this.calls > definition.maxSteps)
      this.raise(
        new WorkflowError(
          'step-limit',
          `workflow ${definition.name} run ${this.runId} called more than maxSteps (${String(definition.maxSteps)}) steps; bound its loops or raise maxSteps`,
          { runId: this.runId },
        ),
      );
    const declared = definition.steps;
    if (declared !== undefined && !declared.some((s) => s.name === name))
      this.raise(
        new WorkflowError(
          'diverged',
          `workflow ${definition.name} called step ${JSON.stringify(name)}, which its steps do not declare; declare it or fix the call`,
          { runId: this.runId, step: name },
        ),
      );
    const n = (this.counts.get(name) ?? 0) + 1;
    this.counts.set(name, n);
    return n === 1 ? name : `${name}#${String(n)}`;
  }

  /** Records `error` as fatal (the run fails with it) and throws it. */
  raise(error: WorkflowError): never {
    this.fatal ??= error;
    throw error;
  }

  /** A new step record (or `existing` restarted), running now, in its parallel group. */
  begin(key: string, name: string, kind: StepRecord['kind'], existing?: StepRecord): StepRecord {
    const peer = [...this.active][0];
    const record: StepRecord = existing ?? {
      key,
      name,
      kind,
      status: 'running',
      seq: ++this.seq,
      attempt: 0,
      startedAt: this.setup.store.now(),
    };
    if (existing === undefined) record.group = peer?.group ?? record.seq;
    if (existing?.status === 'running') this.interrupted.add(key);
    record.status = 'running';
    delete record.endedAt;
    delete record.error;
    this.records.set(key, record);
    this.active.add(record);
    return record;
  }

  /** Takes the data given to step `key` in this execution (once). */
  takePending(key: string): JsonValue | undefined {
    if (this.pendingInput?.key !== key) return undefined;
    const { data } = this.pendingInput;
    this.pendingInput = undefined;
    return data;
  }

  /** Whether data waits for step `key` in this execution. */
  hasPending(key: string): boolean {
    return this.pendingInput?.key === key;
  }

  /** Writes the step records (after every earlier write). */
  checkpoint(): Promise<void> {
    return this.setup.writer.write(() => ({ steps: encodeSteps(this.records.values()) }));
  }

  /** Tracks a step's promise so the execution ends only after it settled. */
  track<T>(promise: Promise<T>): Promise<T> {
    this.inflight.add(promise);
    const done = (): void => {
      this.inflight.delete(promise);
    };
    promise.then(done, done);
    return promise;
  }

  /** Reports `event` to the runner's observer. */
  emit(event: WorkflowEvent): void {
    this.setup.emit(event);
  }

  /** Runs the workflow until it and every step it started settled; how `run` settled. */
  async run(): Promise<Outcome> {
    const { definition, writer, info, store } = this.setup;
    const base = { runId: this.runId, workflow: definition.name };
    this.emit({
      kind: this.setup.resumed && info.steps.length > 0 ? 'workflow_resumed' : 'workflow_started',
      ...base,
      at: store.now(),
    });
    writer.startRenewal();
    let outcome: Outcome;
    try {
      outcome = { ok: true, value: await definition.run(info.input, this.setup.context(this)) };
    } catch (error) {
      outcome = { ok: false, error };
    }
    this.closed = true;
    while (this.inflight.size > 0) await Promise.allSettled([...this.inflight]);
    return outcome;
  }

  /** Whether `error` must pass through a step untouched (no retry, no failure record). */
  passesThrough(error: unknown): boolean {
    return (
      error instanceof Suspension ||
      error === this.fatal ||
      this.stopWith !== undefined ||
      (this.setup.writer.lost !== undefined && error === this.setup.writer.lost)
    );
  }
}
