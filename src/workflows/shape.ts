import type { StepKind } from './step-record';

/** A declared step: its name, kind and the steps that may follow it. */
export interface WorkflowStepDeclaration {
  readonly name: string;
  /** The steps that may run next (branches, fan-out); absent: the next declared step. */
  readonly next?: readonly string[];
  /** Default `'step'`. */
  readonly kind?: StepKind;
}

/** One node of a {@link WorkflowShape}. */
export interface WorkflowShapeStep {
  readonly name: string;
  readonly kind: StepKind;
  /** The steps that may follow (empty: the workflow may end here). */
  readonly next: readonly string[];
}

/** A workflow's static shape: its declared steps and their edges (`workflowGraph`). */
export interface WorkflowShape {
  /** The workflow's name. */
  readonly workflow: string;
  /** The declared steps in declaration order; the first is the entry. */
  readonly steps: readonly WorkflowShapeStep[];
}

/** The shape of declared steps (absent `next`: the following declaration). Internal. */
export function shapeOf(
  workflow: string,
  steps: readonly WorkflowStepDeclaration[],
): WorkflowShape {
  const shaped = steps.map((step, index) => {
    const following = steps[index + 1];
    const next = step.next ?? (following === undefined ? [] : [following.name]);
    return Object.freeze({
      name: step.name,
      kind: step.kind ?? 'step',
      next: Object.freeze([...next]),
    });
  });
  return Object.freeze({ workflow, steps: Object.freeze(shaped) });
}
