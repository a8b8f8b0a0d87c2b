import type { StepWaiting } from './step-record';

/**
 * Thrown through a step (and the workflow's `run`) when the step suspends: the execution ends
 * with the run suspended once its other steps settle. Not a failure; never exported.
 */
export class Suspension extends Error {
  constructor(
    readonly step: string,
    readonly waiting: StepWaiting,
  ) {
    super(
      `workflow step ${step} suspended (waiting for a ${waiting.kind}); the run continues when it is resumed`,
    );
    this.name = 'Suspension';
  }
}
