import type { StandardSchemaV1 } from '../core/index';
import { runAgentStep } from './agent-step';
import { runToolStep } from './tool-step';
import type { StepFn, StepOptions, WorkflowContext } from './context';
import type { Execution } from './execution';
import { runStep } from './step-runner';
import { Suspension } from './suspension';
import { validated } from './validate';
import { WorkflowError } from './workflow-error';

/** The `wf` a workflow's `run` gets for one execution. Internal. */
export function workflowContext(exec: Execution): WorkflowContext {
  const { info } = exec.setup;
  const sleepStep = (name: string, wakeAt: () => number): Promise<void> =>
    runStep<undefined>(exec, {
      name,
      kind: 'sleep',
      execute: (_ctx, record) => {
        const at = record.waiting?.wakeAt ?? wakeAt();
        if (exec.setup.now() >= at) return Promise.resolve(undefined);
        throw new Suspension(record.key, { kind: 'timer', wakeAt: at });
      },
    });
  return {
    runId: exec.runId,
    workflow: exec.setup.definition.name,
    ...(info.owner !== undefined && { owner: info.owner }),
    signal: exec.signal,
    step: <T>(name: string, fn: StepFn<T>, options?: StepOptions<T>) => {
      if (typeof fn !== 'function')
        return Promise.reject(
          new WorkflowError(
            'invalid-input',
            `wf.step(${JSON.stringify(name)}) needs a function as its body`,
            {
              runId: exec.runId,
            },
          ),
        );
      return runStep<T>(exec, {
        name,
        kind: 'step',
        ...(options !== undefined && { options }),
        execute: async (ctx) => fn(ctx),
      });
    },
    sleepUntil: (name, at) => {
      const time = at instanceof Date ? at.getTime() : at;
      if (!Number.isFinite(time))
        return Promise.reject(
          new WorkflowError(
            'invalid-input',
            `wf.sleepUntil(${JSON.stringify(name)}) needs a finite time`,
            {
              runId: exec.runId,
            },
          ),
        );
      return sleepStep(name, () => time);
    },
    sleep: (name, ms) => {
      if (!Number.isFinite(ms) || ms < 0)
        return Promise.reject(
          new WorkflowError(
            'invalid-input',
            `wf.sleep(${JSON.stringify(name)}) needs a duration of 0 ms or more`,
            {
              runId: exec.runId,
            },
          ),
        );
      return sleepStep(name, () => exec.setup.store.now() + ms);
    },
    waitForEvent: <T>(name: string, schema?: StandardSchemaV1<unknown, T>) =>
      runStep<T>(exec, {
        name,
        kind: 'event',
        execute: async (_ctx, record) => {
          const where = { runId: exec.runId, step: record.key };
          const given = exec.takePending(record.key);
          if (given !== undefined) {
            let value: T;
            try {
              value = await validated(schema, given, `event ${JSON.stringify(name)}'s data`, where);
            } catch (error) {
              if (WorkflowError.is(error)) exec.raise(error);
              throw error;
            }
            record.resumeData = given;
            return value;
          }
          if (record.resumeData !== undefined)
            return validated(
              schema,
              record.resumeData,
              `event ${JSON.stringify(name)}'s recorded data`,
              where,
            );
          throw new Suspension(record.key, { kind: 'event', event: name });
        },
        replay: (record) =>
          validated(schema, record.output, `event ${JSON.stringify(name)}'s recorded data`, {
            runId: exec.runId,
            step: record.key,
          }),
      }),
    runAgent: (name, agent, prompt, options) => runAgentStep(exec, name, agent, prompt, options),
    runTool: (name, tool, args, options) => runToolStep(exec, name, tool, args, options),
  };
}
