import type { WorkflowDefinition } from './definition';
import type { WorkflowShape } from './shape';

/**
 * The static shape of `workflow`: its declared steps and edges (`steps` of `defineWorkflow`, or
 * `@Step({ next })` of a decorated class). A workflow without declarations has no steps here
 * (its steps are only known as it runs: draw a run with `toMermaid(runner.get(id))`).
 */
export function workflowGraph(workflow: WorkflowDefinition): WorkflowShape {
  return (
    workflow.describe?.() ?? Object.freeze({ workflow: workflow.name, steps: Object.freeze([]) })
  );
}
