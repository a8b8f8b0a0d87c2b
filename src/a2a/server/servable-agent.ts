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
    options?: ServedResumeOptions,
  ): Promise<Result<unknown>>;
  /**
   * Whether the agent's model streams (a golem `Agent`'s `streaming`). With `runStream` (and
   * `resumeStream` for resumes), the server then publishes the answer's text as it streams.
   */
  readonly streaming?: boolean;
  /** Runs the agent on a prompt, streaming (a golem `Agent`'s `runStream`). */
  runStream?(prompt: string, options?: ServedRunOptions): ServedRunStream;
  /** Resumes a paused run, streaming (a golem `Agent`'s `resumeStream`). */
  resumeStream?(
    history: string | RunState,
    results: DeferredResults,
    options?: ServedResumeOptions,
  ): ServedRunStream;
  /**
   * Continues a stored run interrupted by a restart (a golem `Agent`'s `resumeRun`): how the
   * server recovers a task whose run no live process holds (see `A2AServerOptions.recover`).
   */
  resumeRun?(runId: string, options?: ServedResumeOptions): Promise<Result<unknown>>;
}

/** The options the A2A server passes to a resume or a continuation. */
export interface ServedResumeOptions {
  /** Aborts the run when the task is canceled. */
  signal?: AbortSignal;
  /** The store to checkpoint in (the server's `store` option). */
  store?: RunStore;
  /** The caller's owner key (from `authenticate`), with a store. */
  owner?: string;
}

/** What the server reads of a streaming run (a golem `RunStream`): its text, then its result. */
export interface ServedRunStream {
  /** The answer's text fragments, in order; ends when the run ends. */
  readonly textStream: AsyncIterable<string>;
  /** Settles with the run. */
  readonly result: Promise<Result<unknown>>;
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
