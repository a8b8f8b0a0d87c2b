import type { WorkflowDefinition } from './definition';
import { deliver, inputJson } from './deliver';
import { forkRow } from './fork';
import { insertRun } from './new-run';
import { recoverRuns, wakeDueRuns } from './sweeps';
import type { StartWorkflowOptions } from './new-run';
import type { ForkOptions } from './fork';
import { jsonText } from './json-value';
import { RunAccess } from './run-access';
import type { WorkflowRunInfo, WorkflowRunResult } from './run-info';
import type { WorkflowRunnerOptions } from './runner-options';
import { runnerSettings } from './runner-options';
import type { StoredWorkflowRun, WorkflowRunFilter } from './store-port';
import { validated } from './validate';
import { WorkflowError } from './workflow-error';

/** Scopes a door to one owner's runs (another owner's run is reported as missing). */
export interface OwnerScope {
  owner?: string;
}

/**
 * Executes workflows durably over a `WorkflowStore`: every step is checkpointed, a crashed run is
 * continued by any runner once its lease expires (`recover`), suspended runs continue on
 * `resume`, `signal` and `wakeDue`. Every door given an `owner` checks it.
 */
export class WorkflowRunner {
  private readonly access: RunAccess;

  constructor(options: WorkflowRunnerOptions) {
    this.access = new RunAccess(runnerSettings(options));
  }

  /** Starts a run of `workflow` on `input` and executes it until it completes, suspends or fails (rejects). */
  start<I, O>(
    workflow: WorkflowDefinition<I, O>,
    input: I,
    options?: StartWorkflowOptions,
  ): Promise<WorkflowRunResult<O>>;
  start(
    workflow: string,
    input: unknown,
    options?: StartWorkflowOptions,
  ): Promise<WorkflowRunResult<unknown>>;
  async start(
    workflow: WorkflowDefinition | string,
    input: unknown,
    options: StartWorkflowOptions = {},
  ): Promise<WorkflowRunResult<unknown>> {
    const row = await insertRun(this.access, workflow, input, options, true);
    return this.access.execute(row, row, {
      resumed: false,
      ...(options.signal !== undefined && { signal: options.signal }),
    });
  }

  /** Stores a new run without executing it (a queue executes it later with `execute`). */
  async startAsync<I, O>(
    workflow: WorkflowDefinition<I, O> | string,
    input: I,
    options: StartWorkflowOptions = {},
  ): Promise<{ runId: string }> {
    const row = await insertRun(this.access, workflow, input, options, false);
    return { runId: row.id };
  }

  /** Executes a stored run (`startAsync`, or an interrupted one): `continue` for queue workers. */
  execute<O = unknown>(runId: string): Promise<WorkflowRunResult<O>> {
    return this.continue<O>(runId);
  }

  /**
   * Continues one run: a running one whose lease is free or expired (else `leased`), a suspended
   * one whose timer is due; a suspended one still waiting, or a completed one, is reported as it is.
   */
  async continue<O = unknown>(
    runId: string,
    options: OwnerScope = {},
  ): Promise<WorkflowRunResult<O>> {
    const row = await this.access.load(runId, options.owner);
    const info = this.access.info(row);
    switch (info.status) {
      case 'completed':
        return { runId, status: 'completed', output: info.output as O };
      case 'failed':
        throw new WorkflowError(
          'step-failed',
          `workflow run ${JSON.stringify(runId)} failed: ${info.error?.message ?? 'unknown'}; fork it to run it again`,
          {
            runId,
            ...(info.error?.step !== undefined && { step: info.error.step }),
          },
        );
      case 'cancelled':
        throw new WorkflowError(
          'cancelled',
          `workflow run ${JSON.stringify(runId)} was cancelled`,
          { runId },
        );
      case 'suspended': {
        const now = this.access.settings.store.now();
        if (row.wakeAt === null || row.wakeAt > now)
          return { runId, status: 'suspended', waiting: info.waiting };
        return this.claimAndRun(row, { status: 'running', waiting: null, wakeAt: null }, 'leased');
      }
      case 'running':
        if (this.access.leased(row))
          throw new WorkflowError(
            'leased',
            `workflow run ${JSON.stringify(runId)} is being executed by ${row.leaseOwner ?? 'this runner'}; wait for its lease to expire`,
            {
              runId,
            },
          );
        return this.claimAndRun(row, {}, 'leased');
    }
  }

  /**
   * Resumes a run suspended in `ctx.suspend`: `data` is validated by the step's schema when the
   * step runs again (invalid: `invalid-input`, nothing recorded) and recorded as its `resumeData`.
   * A second resume of the same suspension loses: `conflict`.
   */
  async resume<O = unknown>(
    runId: string,
    data: unknown,
    options: OwnerScope & { step?: string } = {},
  ): Promise<WorkflowRunResult<O>> {
    const given = inputJson(data, `the data resuming workflow run ${runId}`, runId);
    const row = await this.access.load(runId, options.owner);
    const steps = this.access.info(row).steps;
    const target =
      options.step === undefined
        ? (steps.find((s) => s.status === 'suspended' && s.waiting?.kind === 'decision') ??
          steps.findLast((s) => s.waiting?.kind === 'decision'))
        : steps.find((s) => s.key === options.step);
    if (options.step !== undefined && target === undefined)
      throw new WorkflowError(
        'not-found',
        `workflow run ${JSON.stringify(runId)} has no step ${JSON.stringify(options.step)}`,
        {
          runId,
        },
      );
    return deliver<O>(this.access, row, target, given, 'decision');
  }

  /** Delivers event `event` with `data` to a run suspended in `wf.waitForEvent(event)`. */
  async signal<O = unknown>(
    runId: string,
    event: string,
    data: unknown,
    options: OwnerScope = {},
  ): Promise<WorkflowRunResult<O>> {
    const given = inputJson(data, `event ${JSON.stringify(event)}'s data`, runId);
    const row = await this.access.load(runId, options.owner);
    const target = this.access
      .info(row)
      .steps.find(
        (s) => s.kind === 'event' && s.status === 'suspended' && s.waiting?.event === event,
      );
    return deliver<O>(this.access, row, target, given, 'event', event);
  }

  /**
   * Continues every suspended run (of this runner's workflows) whose timer is due at `now` (default
   * the store clock), at most 100 per call; their ids.
   */
  wakeDue(options: { now?: number } = {}): Promise<string[]> {
    return wakeDueRuns(this.access, options.now);
  }

  /**
   * Continues every running run (of this runner's workflows) whose lease expired or was never
   * taken (crashed processes, `startAsync` runs), at most 100 per call; their ids. `olderThan`:
   * only runs untouched for that many ms.
   */
  recover(options: { olderThan?: number } = {}): Promise<string[]> {
    return recoverRuns(this.access, options.olderThan);
  }

  /** The run, decoded (steps, waiting, output, error). */
  async get(runId: string, options: OwnerScope = {}): Promise<WorkflowRunInfo> {
    return this.access.info(await this.access.load(runId, options.owner));
  }

  /** Runs matching `filter`, decoded, newest first. */
  async list(filter: WorkflowRunFilter = {}): Promise<WorkflowRunInfo[]> {
    const rows = await this.access.settings.store.listWorkflowRuns(filter);
    return rows
      .filter((row) => filter.owner === undefined || row.owner === filter.owner)
      .map((row) => this.access.info(row));
  }

  /** Cancels a run: stored as cancelled; an execution stops at its next step boundary. */
  async cancel(runId: string, options: OwnerScope = {}): Promise<void> {
    for (;;) {
      const row = await this.access.load(runId, options.owner);
      if (row.status === 'cancelled') return;
      if (row.status === 'completed' || row.status === 'failed')
        throw new WorkflowError(
          'conflict',
          `workflow run ${JSON.stringify(runId)} already ${row.status}; it cannot be cancelled`,
          {
            runId,
          },
        );
      const next: StoredWorkflowRun = {
        ...row,
        status: 'cancelled',
        waiting: null,
        wakeAt: null,
        leaseOwner: null,
        leaseExpiresAt: null,
        updatedAt: this.access.settings.store.now(),
        version: row.version + 1,
      };
      if (await this.access.settings.store.replaceWorkflowRun(next, row.version)) {
        this.access.executions.get(runId)?.lose(
          new WorkflowError('cancelled', `workflow run ${JSON.stringify(runId)} was cancelled`, {
            runId,
          }),
        );
        return;
      }
    }
  }

  /**
   * A new run from `runId`'s completed steps that started before step `from` (replayed, never
   * re-executed); `from` and what follows run again with the current definition. The original is
   * untouched.
   */
  async fork<O = unknown>(
    runId: string,
    options: ForkOptions & OwnerScope,
  ): Promise<WorkflowRunResult<O>> {
    const original = await this.access.load(runId, options.owner);
    const definition = this.access.definitionOf(original.workflow, runId);
    const input =
      options.input === undefined
        ? undefined
        : jsonText(
            await validated(
              definition.input,
              options.input,
              `workflow ${definition.name}'s input`,
              {},
            ),
            'the fork input',
          );
    const row = this.access.held(
      forkRow(this.access.info(original), options, {
        id: options.runId ?? this.access.settings.newId(),
        now: this.access.settings.store.now(),
        ...(input !== undefined && { input }),
      }),
    );
    if (!(await this.access.settings.store.insertWorkflowRun(row)))
      throw new WorkflowError(
        'conflict',
        `a workflow run ${JSON.stringify(row.id)} exists already; fork with a new runId`,
        { runId: row.id },
      );
    return this.access.execute<O>(row, row, { resumed: false });
  }

  private async claimAndRun<O>(
    row: StoredWorkflowRun,
    patch: Partial<StoredWorkflowRun>,
    lost: 'leased' | 'conflict',
  ): Promise<WorkflowRunResult<O>> {
    const claimed = await this.access.claim(row, patch);
    if (claimed === undefined)
      throw new WorkflowError(
        lost,
        `workflow run ${JSON.stringify(row.id)} was taken by another resume or process first`,
        { runId: row.id },
      );
    return this.access.execute<O>(claimed, row, { resumed: true });
  }
}
