import type { JsonValue } from '../core/index';
import type { WorkflowShape } from './shape';
import type { StepRecord, WaitingInfo } from './step-record';
import type { WorkflowStatus } from './store-port';

/** A workflow run, decoded (`runner.get`, `runner.list`). */
export interface WorkflowRunInfo {
  id: string;
  workflow: string;
  owner: string | undefined;
  status: WorkflowStatus;
  input: JsonValue | undefined;
  /** A completed run's output. */
  output: JsonValue | undefined;
  /** A failed run's error. */
  error: { name: string; message: string; step?: string } | undefined;
  /** The step checkpoints in start order. */
  steps: StepRecord[];
  /** What a suspended run waits for (empty otherwise). */
  waiting: WaitingInfo[];
  /** When a suspended run's earliest timer is due. */
  wakeAt: number | undefined;
  /** The run this one was forked from, and the step it re-ran from. */
  forkedFrom: { runId: string; step: string } | undefined;
  createdAt: number;
  updatedAt: number;
  /** Who executes the run until when; absent when nobody does. */
  lease: { owner: string; expiresAt: number } | undefined;
  version: number;
  /** The workflow's declared shape, when the runner knows the workflow and it declares steps. */
  shape?: WorkflowShape;
}

/** How a run execution ended: completed, suspended (waiting), or failed. */
export type WorkflowRunResult<Output> =
  | { runId: string; status: 'completed'; output: Output }
  | { runId: string; status: 'suspended'; waiting: WaitingInfo[] }
  | { runId: string; status: 'failed'; error: Error };
