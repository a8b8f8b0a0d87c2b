/**
 * `golem/workflows`: durable, code-first workflows. A workflow is plain TypeScript over steps
 * (`wf.step`, `wf.sleep`, `wf.waitForEvent`, `wf.runAgent`); every step's output is checkpointed in
 * a `WorkflowStore`, so a crashed run continues where it stopped (completed steps are replayed,
 * never re-run), suspended runs wait for decisions, events and timers, and runs can be forked.
 * @packageDocumentation
 */
// Where this entry point departs from the design note (/tmp/h/workflows-design.md), on purpose:
// - `WorkflowError.kind` is the WorkflowErrorKind ('diverged', …); its brand and `name` stay
//   'WorkflowError' (`WorkflowError.is`, `WorkflowError.isKind(error, kind)`).
// - `wf.runAgent` takes agents without `deferredTools` and returns their `CompletedResult`; an
//   agent run that pauses fails the step.
// - `WorkflowRunnerOptions.owner` names the runner in leases (a process); tenants are the
//   per-call `owner` of start and the doors. Extra options: `sleep` (retry waits, for tests).
// - Resume and signal data are validated when the waiting step runs again (its schema lives in
//   code); invalid data restores the row as it was (nothing recorded) and rejects `invalid-input`.
// - Every executing door (start, execute, continue, resume, signal, fork) rejects on failure; the
//   `failed` result is for `WorkflowRecorder`. `fork` executes the new run and returns its result.
// - `StepRecord.group` (parallel groups, drawn as fan-out/fan-in) and `WorkflowRunInfo.shape`
//   (declared steps, drawn as pending) are additions; `start({ signal })` stops the execution
//   (not the run) at the next step boundary.
// Definitions.
export { defineWorkflow, DEFAULT_MAX_STEPS } from './definition';
export type {
  WorkflowConfig,
  WorkflowDefinition,
  WorkflowInput,
  WorkflowOutput,
} from './definition';
export type {
  WorkflowContext,
  StepContext,
  StepFn,
  StepOptions,
  SuspendRequest,
  RunAgentOptions,
  RunToolOptions,
} from './context';
// Running.
export { WorkflowRunner } from './runner';
export type { OwnerScope } from './runner';
export type { StartWorkflowOptions } from './new-run';
export type { WorkflowRunnerOptions } from './runner-options';
export { WorkflowRecorder } from './record-only';
export type { RecordedDelivery, RecordedOutcome, DueRun } from './record-only';
export type { ForkOptions } from './fork';
export type { WorkflowRunResult, WorkflowRunInfo } from './run-info';
export type { StepRecord, StepKind, StepStatus, StepWaiting, WaitingInfo } from './step-record';
export type { WorkflowEvent, WorkflowEventKind, WorkflowObserver } from './events';
export { WorkflowError } from './workflow-error';
export type { WorkflowErrorKind, WorkflowErrorInit } from './workflow-error';
// Introspection.
export { workflowGraph } from './graph';
export { toMermaid } from './mermaid';
export type { WorkflowShape, WorkflowShapeStep, WorkflowStepDeclaration } from './shape';
// The store port.
export { isWorkflowStore, WORKFLOW_STATUSES } from './store-port';
export type {
  WorkflowStore,
  StoredWorkflowRun,
  WorkflowRunFilter,
  WorkflowStatus,
} from './store-port';
