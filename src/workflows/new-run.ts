import type { WorkflowDefinition } from './definition';
import { jsonText } from './json-value';
import type { RunAccess } from './run-access';
import { encodeSteps } from './row-codec';
import type { StoredWorkflowRun } from './store-port';
import { validated } from './validate';
import { WorkflowError } from './workflow-error';

/** Options of `WorkflowRunner.start`. */
export interface StartWorkflowOptions {
  /** The run's id (default a new one); must be new. */
  runId?: string;
  /** Who the run belongs to: doors given an owner see only that owner's runs. */
  owner?: string;
  /**
   * Stops this execution at its next step boundary (step bodies see it through `ctx.signal`); the
   * stored run stays `running` (lease given up) and is continued by `recover` or `continue`. `startAsync` ignores it.
   */
  signal?: AbortSignal;
}

/**
 * Stores a new run of `workflow` (its input validated by the workflow's schema and stored as
 * JSON); `hold`: with this runner's lease, to execute it now. Internal.
 */
export async function insertRun(
  access: RunAccess,
  workflow: WorkflowDefinition | string,
  input: unknown,
  options: StartWorkflowOptions,
  hold: boolean,
): Promise<StoredWorkflowRun> {
  const definition = access.definitionOf(typeof workflow === 'string' ? workflow : workflow.name);
  const id = options.runId ?? access.settings.newId();
  const value = await validated(definition.input, input, `workflow ${definition.name}'s input`, {
    runId: id,
  });
  const now = access.settings.store.now();
  const row: StoredWorkflowRun = {
    id,
    workflow: definition.name,
    owner: options.owner ?? null,
    status: 'running',
    input: inputText(value, definition.name, id),
    output: null,
    steps: encodeSteps([]),
    waiting: null,
    wakeAt: null,
    error: null,
    forkedFrom: null,
    createdAt: now,
    updatedAt: now,
    leaseOwner: null,
    leaseExpiresAt: null,
    version: 0,
  };
  const stored = hold ? access.held(row) : { ...row, version: 1 };
  if (!(await access.settings.store.insertWorkflowRun(stored)))
    throw new WorkflowError(
      'conflict',
      `a workflow run ${JSON.stringify(id)} exists already; start with a new runId`,
      { runId: id },
    );
  return stored;
}

function inputText(value: unknown, workflow: string, runId: string): string {
  try {
    return jsonText(value, `workflow ${workflow}'s input`, { runId });
  } catch (error) {
    throw new WorkflowError('invalid-input', (error as Error).message, { runId, cause: error });
  }
}
