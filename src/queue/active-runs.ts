import { CancelledError } from '../core/errors/cancellation';

/** One run a worker is executing: its abort controller and why it was stopped. Internal. */
export class ActiveRun {
  readonly controller = new AbortController();
  /** Set when `queue.cancel` stopped it. */
  cancelled: string | undefined;
  /** Set when the worker is shutting down and hands the run over. */
  handedOver = false;

  constructor(private readonly onEnd: () => void) {}

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  cancel(reason: string): void {
    if (this.cancelled !== undefined || this.handedOver) return;
    this.cancelled = reason;
    this.controller.abort(new CancelledError(`run cancelled: ${reason}`));
  }

  handOver(): void {
    if (this.cancelled !== undefined || this.handedOver) return;
    this.handedOver = true;
    this.controller.abort(
      new CancelledError('the worker is shutting down; another one continues the run'),
    );
  }

  end(): void {
    this.onEnd();
  }
}

/** The runs a worker process is executing, by run id. Internal. */
export class ActiveRuns {
  private readonly runs = new Map<string, ActiveRun>();

  begin(runId: string): ActiveRun {
    const run = new ActiveRun(() => {
      if (this.runs.get(runId) === run) this.runs.delete(runId);
    });
    this.runs.set(runId, run);
    return run;
  }

  /** Cancels the run if this process executes it; resolves whether it did. */
  cancel(runId: string, reason: string): boolean {
    const run = this.runs.get(runId);
    run?.cancel(reason);
    return run !== undefined;
  }

  /** Stops every run for a handover to other workers. */
  handOverAll(): void {
    for (const run of this.runs.values()) run.handOver();
  }

  get size(): number {
    return this.runs.size;
  }
}
