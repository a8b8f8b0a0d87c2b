import type { JsonValue } from '../core/index';
import { inputJson } from './deliver';
import { encodeSteps } from './row-codec';
import { RunAccess } from './run-access';
import type { WorkflowRunResult } from './run-info';
import type { OwnerScope } from './runner';
import type { WorkflowRunnerOptions } from './runner-options';
import { runnerSettings } from './runner-options';
import type { StepRecord, WaitingInfo } from './step-record';
import type { StoredWorkflowRun } from './store-port';
import { WorkflowError } from './workflow-error';

/** A decision or event recorded in a suspended run by {@link WorkflowRecorder}. */
export interface RecordedDelivery {
  runId: string;
  /** The step key given the data. */
  step: string;
  /** The run's version after the write (unique per delivery: a queue's job id). */
  version: number;
}

/** How {@link WorkflowRecorder.executeRecorded} left a run. */
export type RecordedOutcome<O = unknown> =
  | WorkflowRunResult<O>
  | { runId: string; status: 'cancelled' }
  /** Another process holds the run's lease until `until` (store clock): try again then. */
  | { runId: string; status: 'leased'; until: number };

/** A run a sweep found due: a timer or a recorded delivery, or an expired lease. */
export interface DueRun {
  runId: string;
  version: number;
  reason: 'due' | 'lease-expired';
}

const CLAIM_TRIES = 5;

/**
 * The doors a job queue (`golem/queue`) needs beside {@link WorkflowRunner}'s: record a decision or
 * an event in a suspended run WITHOUT executing it (the JSON is checked and the run must wait for
 * it; the step's schema validates the data when a worker executes the run — invalid data is then
 * dropped, the run stays suspended as before and the execution fails with `invalid-input`), execute
 * a run whatever made it due, and list the runs a sweep should hand to workers.
 */
export class WorkflowRecorder {
  private readonly access: RunAccess;

  constructor(options: WorkflowRunnerOptions) {
    this.access = new RunAccess(runnerSettings(options));
  }

  /** Records `data` for the run's suspended decision (`step`, default the first waiting one). */
  recordResume(
    runId: string,
    data: unknown,
    options: OwnerScope & { step?: string } = {},
  ): Promise<RecordedDelivery> {
    const given = inputJson(data, `the data resuming workflow run ${runId}`, runId);
    return this.record(
      runId,
      options.owner,
      'a decision',
      (steps) => {
        if (options.step === undefined)
          return (
            steps.find((s) => waitsFor(s, 'decision') && s.resumeData === undefined) ??
            steps.findLast((s) => s.waiting?.kind === 'decision')
          );
        const step = steps.find((s) => s.key === options.step);
        if (step === undefined)
          throw new WorkflowError(
            'not-found',
            `workflow run ${JSON.stringify(runId)} has no step ${JSON.stringify(options.step)}`,
            { runId },
          );
        return step;
      },
      given,
    );
  }

  /** Records event `event`'s `data` for the run's `waitForEvent(event)`. */
  recordSignal(
    runId: string,
    event: string,
    data: unknown,
    options: OwnerScope = {},
  ): Promise<RecordedDelivery> {
    const given = inputJson(data, `event ${JSON.stringify(event)}'s data`, runId);
    return this.record(
      runId,
      options.owner,
      `event ${JSON.stringify(event)}`,
      (steps) =>
        steps.find(
          (s) => waitsFor(s, 'event') && s.waiting?.event === event && s.resumeData === undefined,
        ) ?? steps.find((s) => s.kind === 'event' && s.waiting?.event === event),
      given,
    );
  }

  /**
   * Executes the run if something made it due: a recorded decision or event (validated now), a due
   * timer, a running run whose lease is free or expired. A run leased by a live process is
   * reported `leased`; a suspended one with nothing due, or an ended one, is reported as it is.
   */
  async executeRecorded<O = unknown>(runId: string): Promise<RecordedOutcome<O>> {
    for (let tries = 0; ; tries++) {
      const row = await this.access.load(runId);
      const info = this.access.info(row);
      const now = this.access.settings.store.now();
      if (info.status === 'completed')
        return { runId, status: 'completed', output: info.output as O };
      if (info.status === 'cancelled') return { runId, status: 'cancelled' };
      if (info.status === 'failed')
        return {
          runId,
          status: 'failed',
          error: new WorkflowError(
            'step-failed',
            `workflow run ${JSON.stringify(runId)} failed: ${info.error?.message ?? 'unknown'}`,
            { runId, ...(info.error?.step !== undefined && { step: info.error.step }) },
          ),
        };
      // A workflow this process does not know is refused before the run is claimed.
      this.access.definitionOf(row.workflow, runId);
      if (info.status === 'running' && this.access.leased(row))
        return {
          runId,
          status: 'leased',
          until: row.leaseExpiresAt ?? now + this.access.settings.leaseMs,
        };
      const delivered = info.steps.find(
        (s) =>
          s.status === 'suspended' && s.resumeData !== undefined && s.waiting?.kind !== 'timer',
      );
      if (
        info.status === 'suspended' &&
        delivered === undefined &&
        (row.wakeAt === null || row.wakeAt > now)
      )
        return { runId, status: 'suspended', waiting: info.waiting };
      const claimed =
        info.status === 'running'
          ? await this.access.claim(row)
          : await this.access.claim(row, { status: 'running', waiting: null, wakeAt: null });
      if (claimed === undefined) {
        if (tries < CLAIM_TRIES) continue;
        return { runId, status: 'leased', until: now + this.access.settings.leaseMs };
      }
      if (info.status === 'running' || delivered?.resumeData === undefined)
        return this.access.execute<O>(claimed, row, { resumed: true });
      // The row to go back to if the data does not validate: suspended as before, data dropped.
      const before: StoredWorkflowRun = {
        ...row,
        steps: encodeSteps(info.steps.map((s) => (s === delivered ? withoutData(s) : s))),
        wakeAt: earliestTimer(info.waiting),
      };
      return this.access.execute<O>(claimed, before, {
        resumed: true,
        pending: { key: delivered.key, data: delivered.resumeData },
      });
    }
  }

  /**
   * Runs a sweep should hand to workers: suspended ones whose timer is due or that hold a recorded
   * delivery, and running ones whose lease is free or expired and untouched for a lease period
   * (crashed processes, lost jobs). At most `limit` (default 100) of each.
   */
  async dueRuns(options: { limit?: number } = {}): Promise<DueRun[]> {
    const { store, leaseMs } = this.access.settings;
    const now = store.now();
    const limit = options.limit ?? 100;
    const [due, running] = await Promise.all([
      store.listWorkflowRuns({ status: ['suspended'], dueBefore: now, limit }),
      store.listWorkflowRuns({ status: ['running'], limit }),
    ]);
    return [
      ...due.map((row) => ({ runId: row.id, version: row.version, reason: 'due' as const })),
      ...running
        .filter((row) => !this.access.leased(row) && row.updatedAt <= now - leaseMs)
        .map((row) => ({ runId: row.id, version: row.version, reason: 'lease-expired' as const })),
    ];
  }

  /** Records `data` as `pick`'s step's `resumeData` in one conditional write (due at once). */
  private async record(
    runId: string,
    owner: string | undefined,
    what: string,
    pick: (steps: StepRecord[]) => StepRecord | undefined,
    data: JsonValue,
  ): Promise<RecordedDelivery> {
    for (;;) {
      const row = await this.access.load(runId, owner);
      const steps = this.access.info(row).steps;
      const target = pick(steps);
      const kind = what === 'a decision' ? 'decision' : 'event';
      if (row.status !== 'suspended' || target === undefined || !waitsFor(target, kind)) {
        const taken = target !== undefined && target.waiting?.kind === kind;
        throw new WorkflowError(
          taken ? 'conflict' : 'not-suspended',
          taken
            ? `workflow run ${JSON.stringify(runId)}'s step ${target.key} was already given its ${what}`
            : `workflow run ${JSON.stringify(runId)} is not suspended waiting for ${what}`,
          { runId, ...(target !== undefined && { step: target.key }) },
        );
      }
      if (target.resumeData !== undefined)
        throw new WorkflowError(
          'conflict',
          `workflow run ${JSON.stringify(runId)}'s step ${target.key} was already given its ${what}`,
          { runId, step: target.key },
        );
      const now = this.access.settings.store.now();
      const next: StoredWorkflowRun = {
        ...row,
        steps: encodeSteps(steps.map((s) => (s === target ? { ...s, resumeData: data } : s))),
        wakeAt: now,
        updatedAt: now,
        version: row.version + 1,
      };
      if (await this.access.settings.store.replaceWorkflowRun(next, row.version))
        return { runId, step: target.key, version: next.version };
    }
  }
}

function waitsFor(step: StepRecord, kind: 'decision' | 'event'): boolean {
  return (
    step.status === 'suspended' &&
    step.kind === (kind === 'event' ? 'event' : 'step') &&
    step.waiting?.kind === kind
  );
}

function withoutData(step: StepRecord): StepRecord {
  const copy = { ...step };
  delete copy.resumeData;
  return copy;
}

function earliestTimer(waiting: readonly WaitingInfo[]): number | null {
  const timers = waiting.flatMap((w) => (w.wakeAt === undefined ? [] : [w.wakeAt]));
  return timers.length === 0 ? null : Math.min(...timers);
}
