import type { WaitingInfo } from './step-record';

/** What a {@link WorkflowEvent} reports. */
export type WorkflowEventKind =
  | 'workflow_started'
  | 'workflow_resumed'
  | 'workflow_suspended'
  | 'workflow_completed'
  | 'workflow_failed'
  | 'step_started'
  | 'step_completed'
  | 'step_failed'
  | 'step_replayed';

/**
 * What every workflow event carries.
 * @inline
 */
interface EventBase {
  /** The workflow run. */
  runId: string;
  /** The workflow's name. */
  workflow: string;
  /** When, on the store clock (ms since the epoch). */
  at: number;
}

/**
 * A step event: `step` is the step key.
 * @inline
 */
interface StepEvent extends EventBase {
  kind: 'step_started' | 'step_completed' | 'step_replayed';
  step: string;
  attempt: number;
}

/**
 * What a workflow run does, as it happens (the runner's `onEvent`). Its own union, not the agent's
 * `RunEvent`; plain JSON, so it can be logged or mapped to spans.
 */
export type WorkflowEvent =
  | (EventBase & { kind: 'workflow_started' | 'workflow_resumed' | 'workflow_completed' })
  | (EventBase & { kind: 'workflow_suspended'; waiting: WaitingInfo[] })
  | (EventBase & {
      kind: 'workflow_failed';
      step?: string;
      error: { name: string; message: string };
    })
  | StepEvent
  | (EventBase & {
      kind: 'step_failed';
      step: string;
      attempt: number;
      error: { name: string; message: string };
      /** Whether another attempt follows. */
      retrying: boolean;
    });

/** Receives {@link WorkflowEvent}s; a throwing observer is ignored. */
export type WorkflowObserver = (event: WorkflowEvent) => void;
