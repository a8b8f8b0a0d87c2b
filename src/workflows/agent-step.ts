import type { Agent, CompletedResult, Result, RunStore } from '../core/index';
import { ConfigError } from '../core/index';
import type { RunOptionsBase } from '../core/agent/config';
import { decodeRun, stateFields } from '../core/durable/records';
import type { RunRecord } from '../core/durable/records';
import { attachHistory } from '../core/engine/checked-history';
import { attachState } from '../core/engine/run-state';
import type { RunAgentOptions } from './context';
import type { Execution } from './execution';
import { runStep } from './step-runner';

/** The loosely typed run doors of an agent (deps checked by the caller's types). */
interface AgentDoors<Deps, O> {
  run(prompt: string, options: RunOptionsBase & { deps?: Deps }): Promise<Result<O>>;
  resumeRun(runId: string, options: RunOptionsBase & { deps?: Deps }): Promise<Result<O>>;
}

/**
 * `wf.runAgent`: the agent's run is stored in the runner's store under `${runId}:${stepKey}`.
 * A completed step replays from the stored agent run; an interrupted one continues it with
 * `agent.resumeRun` (completed tools are not repeated), or reuses it once it completed. Internal.
 */
export function runAgentStep<Deps, O>(
  exec: Execution,
  name: string,
  agent: Agent<Deps, O>,
  prompt: string,
  options: RunAgentOptions<Deps> = {},
): Promise<CompletedResult<O>> {
  const store = runStoreOf(exec);
  if (store instanceof ConfigError) return Promise.reject(store);
  const owner = exec.setup.info.owner;
  return runStep<CompletedResult<O>>(exec, {
    name,
    kind: 'agent',
    execute: async (ctx, record) => {
      const id = `${exec.runId}:${record.key}`;
      record.agentRunId = id;
      const doors = agent as unknown as AgentDoors<Deps, O>;
      const settings = {
        store,
        signal: ctx.signal,
        ...(owner !== undefined && { owner }),
        ...(options.deps !== undefined && { deps: options.deps }),
      };
      const stored = await store.getRun(id);
      if (stored?.status === 'completed') return rebuilt<O>(decodeRun(stored), undefined);
      const result =
        stored === undefined
          ? await doors.run(prompt, { ...settings, runId: id })
          : await doors.resumeRun(id, settings);
      if (result.pending !== undefined)
        throw new Error(
          `agent ${agent.name} paused on deferred tool calls inside workflow step ${record.key}; agents in workflows must not defer calls (decide in a step with ctx.suspend instead)`,
        );
      return result;
    },
    toOutput: (result) => result.output,
    replay: async (record) => {
      const id = record.agentRunId ?? `${exec.runId}:${record.key}`;
      const stored = await store.getRun(id);
      if (stored === undefined)
        throw new Error(
          `the stored agent run ${id} of workflow step ${record.key} is missing from the store`,
        );
      return rebuilt<O>(decodeRun(stored), record.output as O);
    },
  });
}

/** A completed result rebuilt from a stored agent run (`output` given, else the stored one). */
function rebuilt<O>(record: RunRecord, output: O | undefined): CompletedResult<O> {
  const result = {
    output: output ?? (record.output as O),
    messages: record.messages,
    usage: record.usage,
    requests: record.requests,
    toolCalls: record.toolCalls,
    runId: record.id,
  };
  // Like an engine result: `agent` names the run's agent, not enumerable.
  Object.defineProperty(result, 'agent', { value: record.agent, enumerable: false });
  return attachHistory(attachState(result, () => stateFields(record))) as CompletedResult<O>;
}

/** The runner's store as a RunStore, or the `ConfigError` saying it is not one. */
function runStoreOf(exec: Execution): RunStore | ConfigError {
  const store = exec.setup.store as Partial<RunStore>;
  if (typeof store.getRun !== 'function' || typeof store.insertRun !== 'function')
    return new ConfigError(
      `workflow ${exec.setup.definition.name}: wf.runAgent needs a store that is also a RunStore (memoryStore, sqliteStore, postgresStore)`,
      { component: 'workflows', option: 'store' },
    );
  return store as RunStore;
}
