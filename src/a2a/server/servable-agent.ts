import type { DeferredResults, Result, RunState, RunStore } from '../../core/index';

/** The run options the A2A server passes to an agent. */
export interface ServedRunOptions {
  /** Aborts the run when the task is canceled. */
  signal?: AbortSignal;
  /** The task id, as the stored run's id (with a store). */
  runId?: string;
  /** The task's context, as the stored conversation (with a store). */
  conversation?: string;
  /** The store to checkpoint in (the server's `store` option). */
  store?: RunStore;
  /** The caller's owner key (from `authenticate`), with a store. */
  owner?: string;
}

/**
 * What the A2A server needs of a golem `Agent`: any agent whose `deps` are optional fits (the
 * server has no deps to give).
 */
export interface ServableAgent {
  /** The agent's name (the card's default name). */
  readonly name: string;
  /** The agent's own run store, if any. */
  readonly store: RunStore | undefined;
  /**
   * What the agent is (a golem `Agent`'s `describe()`): the card's description, skills and output
   * modes come from it unless overridden.
   */
  describe?(): ServableDescription;
  /** Runs the agent on a prompt. */
  run(prompt: string, options?: ServedRunOptions): Promise<Result<unknown>>;
  /** Resumes a paused run with the client's decisions. */
  resume(
    history: string | RunState,
    results: DeferredResults,
    options?: { signal?: AbortSignal; store?: RunStore; owner?: string },
  ): Promise<Result<unknown>>;
}

/** What the card generator reads of an agent's `describe()`. */
export interface ServableDescription {
  /** What the agent does. */
  readonly description: string | undefined;
  /** The tools its model is offered. */
  readonly tools: readonly { readonly name: string; readonly description: string }[];
  /** Its structured output's JSON Schema; `undefined` for text. */
  readonly output: unknown;
}
