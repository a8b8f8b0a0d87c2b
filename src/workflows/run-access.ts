import type { JsonValue } from '../core/index';
import type { WorkflowDefinition } from './definition';
import { Execution } from './execution';
import { endExecution } from './execution-end';
import { decodeRow } from './row-codec';
import type { WorkflowRunInfo, WorkflowRunResult } from './run-info';
import type { RunnerSettings } from './runner-options';
import { RunWriter } from './run-writer';
import type { StoredWorkflowRun } from './store-port';
import { WorkflowError } from './workflow-error';
import { workflowContext } from './workflow-context';

/**
 * The runner's access to stored runs: reading them behind the owner check, claiming them with a
 * conditional write, and executing a claimed run. Internal (the runner's doors build on it).
 */
export class RunAccess {
  /** Executions of this process, by run id (to stop them on cancel). */
  readonly executions = new Map<string, RunWriter>();

  constructor(readonly settings: RunnerSettings) {}

  /** The row of `runId`; missing, or another owner's: `not-found`. */
  async load(runId: string, owner?: string): Promise<StoredWorkflowRun> {
    if (typeof runId !== 'string' || runId === '')
      throw new WorkflowError('invalid-input', 'a workflow run id must be a non-empty string');
    const row = await this.settings.store.getWorkflowRun(runId);
    if (row === undefined || (owner !== undefined && row.owner !== owner))
      throw new WorkflowError(
        'not-found',
        `no workflow run ${JSON.stringify(runId)}${owner === undefined ? '' : ' for this owner'}`,
        {
          runId,
        },
      );
    return row;
  }

  /** The registered definition of a stored run. */
  definitionOf(workflow: string, runId?: string): WorkflowDefinition {
    const definition = this.settings.workflows.get(workflow);
    if (definition === undefined)
      throw new WorkflowError(
        'not-found',
        `no workflow named ${JSON.stringify(workflow)} is registered with this runner; pass it in new WorkflowRunner({ workflows })`,
        runId === undefined ? {} : { runId },
      );
    return definition;
  }

  /** The decoded run, with its workflow's declared shape when known. */
  info(row: StoredWorkflowRun): WorkflowRunInfo {
    const info = decodeRow(row);
    const shape = this.settings.workflows.get(row.workflow)?.describe?.();
    return shape === undefined ? info : { ...info, shape };
  }

  /** A row held by this runner from now (lease, version + 1) with `patch`. */
  held(row: StoredWorkflowRun, patch: Partial<StoredWorkflowRun> = {}): StoredWorkflowRun {
    const now = this.settings.store.now();
    return {
      ...row,
      ...patch,
      updatedAt: now,
      leaseOwner: this.settings.owner,
      leaseExpiresAt: now + this.settings.leaseMs,
      version: row.version + 1,
    };
  }

  /**
   * Claims `row` with `patch` in one conditional write; `undefined` when another write won. A run
   * of a workflow this runner does not know is `not-found` (and left alone).
   */
  async claim(
    row: StoredWorkflowRun,
    patch: Partial<StoredWorkflowRun> = {},
  ): Promise<StoredWorkflowRun | undefined> {
    this.definitionOf(row.workflow, row.id); // never claim a run this runner cannot execute
    const next = this.held(row, patch);
    return (await this.settings.store.replaceWorkflowRun(next, row.version)) ? next : undefined;
  }

  /** Executes a run this runner holds (`claimed`); `before` is the row before the claim. */
  async execute<O>(
    claimed: StoredWorkflowRun,
    before: StoredWorkflowRun,
    options: {
      resumed: boolean;
      pending?: { key: string; data: JsonValue };
      now?: number;
      /** Stops this execution (not the run) at its next step boundary. */
      signal?: AbortSignal;
    },
  ): Promise<WorkflowRunResult<O>> {
    const { store, leaseMs, owner, onEvent, sleep } = this.settings;
    const definition = this.definitionOf(claimed.workflow, claimed.id);
    const writer = new RunWriter(store, claimed, owner, leaseMs);
    const floor = options.now;
    const execution = new Execution({
      store,
      definition,
      writer,
      info: decodeRow(claimed),
      before,
      ...(options.pending !== undefined && { pending: options.pending }),
      emit: (event) => {
        try {
          onEvent?.(event);
        } catch {
          // An observer's failure never changes the run.
        }
      },
      sleep,
      now: () => Math.max(store.now(), floor ?? -Infinity),
      resumed: options.resumed,
      context: workflowContext,
    });
    const stop = (): void => {
      execution.stop(
        new WorkflowError(
          'cancelled',
          `the execution of workflow run ${JSON.stringify(claimed.id)} was aborted by its signal; the run itself stays running: recover or continue it later`,
          { runId: claimed.id },
        ),
      );
    };
    if (options.signal?.aborted === true) stop();
    options.signal?.addEventListener('abort', stop, { once: true });
    this.executions.set(claimed.id, writer);
    try {
      const outcome = await execution.run();
      return (await endExecution(execution, outcome)) as WorkflowRunResult<O>;
    } finally {
      writer.stop();
      options.signal?.removeEventListener('abort', stop);
      if (this.executions.get(claimed.id) === writer) this.executions.delete(claimed.id);
    }
  }

  /** Whether a lease on `row` is held by someone now. */
  leased(row: StoredWorkflowRun): boolean {
    return (
      (row.leaseOwner !== null &&
        row.leaseExpiresAt !== null &&
        row.leaseExpiresAt > this.settings.store.now()) ||
      this.executions.has(row.id)
    );
  }
}
