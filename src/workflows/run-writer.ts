import type { StoredWorkflowRun, WorkflowStore } from './store-port';
import { WorkflowError } from './workflow-error';

/**
 * One execution's writes to its run row: serialised through one promise chain, each conditional
 * on the version the previous one wrote, each renewing the lease. A lost write (another process
 * claimed the run, or it was cancelled) makes every later write fail with the same error and
 * aborts `signal`. A timer (unref'd) renews the lease every third of `leaseMs`. Internal.
 */
export class RunWriter {
  private current: StoredWorkflowRun;
  private chain: Promise<unknown> = Promise.resolve();
  private timer: ReturnType<typeof setInterval> | undefined;
  private lostWith: WorkflowError | undefined;
  private readonly controller = new AbortController();

  constructor(
    private readonly store: WorkflowStore,
    row: StoredWorkflowRun,
    private readonly leaseOwner: string,
    private readonly leaseMs: number,
  ) {
    this.current = row;
  }

  /** The last row written. */
  get row(): StoredWorkflowRun {
    return this.current;
  }

  /** Aborted when the run is lost (lease lost or cancelled) or stopped. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Why this execution lost the run, once it has. */
  get lost(): WorkflowError | undefined {
    return this.lostWith;
  }

  /** Starts renewing the lease. */
  startRenewal(): void {
    const every = Math.max(1, Math.floor(this.leaseMs / 3));
    this.timer = setInterval(() => {
      this.write(() => ({})).catch(() => undefined);
    }, every);
    this.timer.unref();
  }

  /** Stops renewing (the execution ended). */
  stop(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
  }

  /** Marks the run lost with `error` (e.g. cancelled from this process). */
  lose(error: WorkflowError): void {
    this.lostWith ??= error;
    this.stop();
    if (!this.controller.signal.aborted) this.controller.abort(this.lostWith);
  }

  /**
   * Writes `patch(row)` over the row after every earlier write; `release` gives the lease up.
   * Rejects with the lost error when the row changed under this execution.
   */
  write(
    patch: (row: StoredWorkflowRun) => Partial<StoredWorkflowRun>,
    release = false,
  ): Promise<void> {
    const next = this.chain.then(async () => {
      if (this.lostWith !== undefined) throw this.lostWith;
      const now = this.store.now();
      const row: StoredWorkflowRun = {
        ...this.current,
        ...patch(this.current),
        id: this.current.id,
        version: this.current.version + 1,
        updatedAt: now,
        leaseOwner: release ? null : this.leaseOwner,
        leaseExpiresAt: release ? null : now + this.leaseMs,
      };
      if (await this.store.replaceWorkflowRun(row, this.current.version)) {
        this.current = row;
        return;
      }
      const stored = await this.store.getWorkflowRun(this.current.id);
      const runId = this.current.id;
      const lost =
        stored?.status === 'cancelled'
          ? new WorkflowError('cancelled', `workflow run ${JSON.stringify(runId)} was cancelled`, {
              runId,
            })
          : new WorkflowError(
              'lease-lost',
              `workflow run ${JSON.stringify(runId)} was taken over by another process (its lease expired): this execution stopped and its unsaved work is dropped; keep steps shorter than the lease or raise leaseMs`,
              { runId },
            );
      this.lose(lost);
      throw lost;
    });
    this.chain = next.catch(() => undefined);
    return next;
  }

  /** Resolves once every queued write settled. */
  async idle(): Promise<void> {
    await this.chain;
  }
}
