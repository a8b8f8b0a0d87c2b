import type { JsonValue } from '../core/index';

/** What a step record is: a plain step, a timer, an event wait or an agent run. */
export type StepKind = 'step' | 'sleep' | 'event' | 'agent';

/** Where a step is. */
export type StepStatus = 'running' | 'completed' | 'failed' | 'suspended';

/** What a suspended step waits for. */
export interface StepWaiting {
  /** `decision`: `ctx.suspend` (resume it); `event`: `waitForEvent` (signal it); `timer`: a sleep. */
  kind: 'decision' | 'event' | 'timer';
  reason?: string;
  payload?: JsonValue;
  /** The event name (`event`). */
  event?: string;
  /** When the timer is due, ms since the epoch (`timer`). */
  wakeAt?: number;
}

/** One thing a suspended run waits for: a step and what it waits on. */
export interface WaitingInfo extends StepWaiting {
  /** The step's key. */
  step: string;
}

/** One step's checkpoint, as stored in `StoredWorkflowRun.steps`. */
export interface StepRecord {
  /** The step key: `name`, then `name#2`, `name#3` … by call order. */
  key: string;
  name: string;
  kind: StepKind;
  status: StepStatus;
  /** Start order within the run (from 1). */
  seq: number;
  /**
   * The parallel group: steps started while another step of the same execution was running share
   * the group of the earliest; a step started alone opens a group (its `seq`).
   */
  group?: number;
  /** Attempts made (from 1). */
  attempt: number;
  startedAt: number;
  endedAt?: number;
  /** The checkpointed output (absent: `undefined`). */
  output?: JsonValue;
  error?: { name: string; message: string };
  waiting?: StepWaiting;
  /** The data a resume or signal gave the step. */
  resumeData?: JsonValue;
  /** The agent run inside the step (`runAgent`). */
  agentRunId?: string;
}
