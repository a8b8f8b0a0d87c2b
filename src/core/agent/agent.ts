import type { Message } from '../contract/message';
import type { AgentMemory } from './memory-port';
import { startMemory, withRecalled } from './memory-run';
import { carriedCompactions } from './given-compactions';
import type { DeltaHandler } from '../contract/model';
import { isStreamingModel } from '../contract/model';
import type { Part } from '../contract/part';
import type {
  AgentConfig,
  ContinueOptions,
  OptionsArg,
  ResumeOptions,
  RunOptions,
  RunOptionsBase,
  StreamOptions,
} from './config';
import {
  buildMessages,
  checkedStart,
  firstMessages,
  instructionsText,
  processHistory,
  promptMessage,
  type StartedRun,
} from './run-start';
import type { SettingsDefaults } from './run-settings';
import { runSettings } from './run-settings';
import { requireStore, storeFor } from './run-store';
import type { RunStore } from '../durable/port';
import type { AgentToolOptions } from './as-tool';
import { agentTool } from './as-tool';
import type { DeferredResults } from '../engine/deferred-types';
import type { Tool } from '../tool/tool';
import { durableConfig, requireStreaming, resolveConfig } from './validate';
import { traceStarter } from './observability';
import type { RunStream } from './stream';
import { continueState, continueStored, executeRun, resumeStored, runStored } from './lazy';
import { resumeCalls, resumeStreaming, runStreams } from './lazy';
import { RunInputError } from '../engine/errors';
import { releasesNothing } from '../engine/run-signal';
import type { HistoryProcessor } from '../engine/history-processor';
import type { Instructions } from '../engine/instructions';
import { fixedInstructionsText } from '../engine/instructions';
import { unansweredCalls } from '../engine/repair';
import type { Result, RunResult } from '../engine/result';
import type { EngineConfig, RunSettings } from '../engine/run-config';
import { RunProgress } from '../engine/run-progress';
import type { ReadState, RunState, StateOrigin } from '../engine/run-state';
import { readState } from '../engine/read-state';
import type { Step } from '../engine/step';
import type { PreparedRun, StoredAgent } from './stored-run';
import type { HandoffTarget } from '../engine/run-config';
import { activeAgent, registerHandoffTarget } from './handoffs';
import { checkedHistory } from '../engine/checked-history';
import type { OutputDecoder } from '../output/decoder';
import { decodeText } from '../output/decode-text';
import { describeAgent, type AgentDescription } from './description';

export type { RunStream } from './stream';

/**
 * An agent: a model, instructions, tools and a typed output boundary. Construction validates
 * the configuration (throwing `ConfigError`); runs fail with `RunError` carrying partial evidence.
 */
export class Agent<Deps = unknown, Output = string, Pausable extends boolean = false> {
  /** @internal */
  protected readonly engine: EngineConfig<Deps>;
  /** @internal */
  protected readonly decoder: OutputDecoder<Output>;
  /** The name stored with this agent's durable runs; default `'agent'`. */
  readonly name: string;
  /** What the agent does (its `description`), if given. */
  readonly description: string | undefined;
  /** Where this agent's runs are checkpointed, if anywhere (see durable runs). */
  readonly store: RunStore | undefined;
  private readonly instructions: Instructions<Deps> | undefined;
  /** The instructions when they are only text (resolved once, here); `undefined` otherwise. */
  private readonly fixedInstructions: string | undefined;
  private readonly historyProcessor: HistoryProcessor | undefined;
  private readonly defaults: SettingsDefaults;
  private readonly memory: AgentMemory | undefined;

  constructor(config: AgentConfig<Deps, Output> & { deferredTools?: Pausable }) {
    this.engine = resolveConfig(config);
    ({ name: this.name, description: this.description, store: this.store } = durableConfig(config));
    this.decoder =
      config.output ?? (decodeText() as OutputDecoder<unknown> as OutputDecoder<Output>);
    this.instructions = config.instructions;
    this.fixedInstructions = fixedInstructionsText(config.instructions);
    this.historyProcessor = config.historyProcessor;
    this.memory = config.memory;
    this.defaults = {
      runTimeout: config.runTimeout,
      turnTimeout: this.engine.turnTimeout,
      onEvent: config.onEvent,
      modelSettings: config.modelSettings,
      startTrace: traceStarter(config.instrumentation, this.name, this.engine),
    };
    registerHandoffTarget(this, () => this.asHandoffTarget());
  }

  /**
   * `messages` as a checked history: validated (a `RunInputError` naming the message and field),
   * copied, repaired (unanswered calls get "interrupted" results) and frozen, messages included,
   * once. Any run of any agent given it as `history` uses it as it is — no copy, no validation,
   * no repair per run — which makes carrying a long conversation nearly free; a plain array is
   * checked on every run. A run's `result.history` is one too. Messages of an earlier checked
   * history are reused, so checking a conversation that grew checks only its new messages.
   */
  static history(messages: readonly Message[]): readonly Message[] {
    return checkedHistory(messages);
  }

  /** Runs the agent on `prompt` (after `options.history`, if any) and decodes the final answer. */
  run(
    prompt: string,
    ...[options]: OptionsArg<Deps, RunOptions<Deps>>
  ): Promise<RunResult<Output, Pausable>> {
    // `runWith` is async (a throw is a rejection); returned as it is, with no layer of its own.
    return this.runWith(prompt, options ?? {}) as Promise<RunResult<Output, Pausable>>;
  }

  /**
   * `run` with options typed loosely, for internal callers that always pass deps. Not itself
   * async (a throw is a rejection): a run whose start needs no await and whose signal has nothing
   * to release goes from here to the loop with no promise of its own.
   */
  private runWith(
    prompt: string,
    options: RunOptionsBase & { deps?: Deps },
  ): Promise<Result<Output>> {
    try {
      const store = storeFor(options, this.store);
      if (store !== undefined) {
        const stored = withRunId(options);
        return runStored(this.stored(), store, stored, async (history, compactions) =>
          this.prepare(prompt, { ...stored, history, compactions }, undefined),
        );
      }
      const prepared = this.prepare(prompt, options, undefined);
      return prepared instanceof Promise
        ? prepared.then((state) => this.runPrepared(state))
        : this.runPrepared(prepared);
    } catch (error) {
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown
      return Promise.reject(error);
    }
  }

  /**
   * Runs a prepared state to its result, then releases the run's signal and trace. (Not named
   * `execute`: an object with `execute` and `name` is taken for a Tool by duck-typing loaders.)
   */
  private runPrepared(state: RunProgress<Deps>): Promise<Result<Output>> {
    const running = executeRun(this.engine, this.decoder, state);
    if (releasesNothing(state.run.release)) return running;
    return running.finally(() => {
      state.run.release();
    });
  }

  /**
   * What this agent is: name, description, fixed instructions, the tools its model is offered,
   * its handoff targets, output schema, whether it streams and may pause. For the tools that
   * present an agent (an A2A card, a studio); a snapshot.
   */
  describe(): AgentDescription {
    return describeAgent(
      this.name,
      this.description,
      this.instructions,
      this.engine,
      this.streaming,
    );
  }

  /** Whether this agent's model streams (`runStream`, and `onDelta` on resumes, need it). */
  get streaming(): boolean {
    return isStreamingModel(this.engine.model);
  }

  /**
   * Runs like `run` while streaming every model fragment. Iterate the returned stream for deltas
   * (or pass `onDelta`); `result` settles with the same result shape as `run`. Streamed turns are
   * single-attempt. A model without streaming fails up front with `ConfigError`.
   */
  runStream(
    prompt: string,
    ...[options]: OptionsArg<Deps, StreamOptions<Deps>>
  ): RunStream<Output, Pausable> {
    const { partialSource, startRunStream } = runStreams();
    return startRunStream<StreamOptions<Deps>, Output, Pausable>(
      (options ?? {}) as StreamOptions<Deps>,
      partialSource(this.engine),
      async (opts, handler) => {
        requireStreaming(this.engine.model);
        const store = storeFor(opts, this.store);
        if (store !== undefined) {
          const stored = withRunId(opts);
          return await runStored(this.stored(), store, stored, async (history, compactions) =>
            this.prepare(prompt, { ...stored, history, compactions }, handler),
          );
        }
        const state = await this.prepare(prompt, opts, handler);
        try {
          return await executeRun(this.engine, this.decoder, state);
        } finally {
          state.run.release();
        }
      },
    );
  }

  /**
   * Resumes a run that paused on deferred calls: `history` is the paused run's `state` (kept as
   * JSON anywhere; a stored run's state continues through its store), its messages, or the id of
   * a paused stored run, in any process; `results` resolves every pending call
   * exactly once (validated before any model call). Approved calls re-run with `ctx.approved`;
   * denials and external results become the calls' results in emission order. An empty `prompt`
   * adds no user message. The run may pause again.
   */
  async resume(
    history: readonly Message[] | string | RunState,
    results: DeferredResults,
    ...[options]: OptionsArg<Deps, ResumeOptions<Deps>>
  ): Promise<Result<Output>> {
    const opts = (options ?? {}) as ResumeOptions<Deps>;
    if (opts.onDelta !== undefined) requireStreaming(this.engine.model);
    if (isStateGiven(history)) {
      const state = this.readOwnState(history, 'resume', storeFor(opts, this.store));
      const runId = state.origin.runId;
      // With a store, the server's record counts, never a copy a caller holds.
      if (runId !== undefined)
        return this.resume(runId, results, ...([opts] as OptionsArg<Deps, ResumeOptions<Deps>>));
      if (state.status !== 'paused')
        throw new RunInputError(
          `state is ${state.status}, not paused: only a paused run's calls can be resolved (continue it with resumeRun)`,
        );
      const {
        state: progress,
        step,
        engine,
        decoder,
      } = await this.resumeState(state.messages, results, opts, true, state.turns);
      progress.carryOver(state);
      try {
        return await executeRun(engine, decoder, progress, step);
      } finally {
        progress.run.release();
      }
    }
    if (typeof history === 'string') {
      const store = requireStore(opts, this.store, 'resume');
      const withId = { ...opts, runId: history }; // the stored run's id goes to the run's trace
      return resumeStored(this.stored(), store, history, opts.owner, (messages, turns) =>
        this.resumeState(messages, results, withId, true, turns),
      );
    }
    const prepared = await this.resumeState(history, results, opts, false, undefined);
    const { state, step, engine, decoder } = prepared;
    try {
      return await executeRun(engine, decoder, state, step);
    } finally {
      state.run.release();
    }
  }

  /**
   * `resume` as a {@link RunStream}: the continuation streams (deltas, `events`, `textStream`) as
   * the chat-UI approval flow needs after a human decision; through the store when `history` is a
   * stored run's id. The model must stream (`ConfigError` otherwise, through `result`).
   */
  resumeStream(
    history: readonly Message[] | string | RunState,
    results: DeferredResults,
    ...[options]: OptionsArg<Deps, ResumeOptions<Deps>>
  ): RunStream<Output, Pausable> {
    const source = runStreams().partialSource(this.engine);
    return resumeStreaming().resumeAsStream(this, source, history, results, options);
  }

  /**
   * Continues a stored run interrupted by a crash, a restart or a failure, from its last
   * checkpoint, in any process: completed tool calls never run again; calls in flight when the
   * process died re-run if their tool is `idempotent`, else the run pauses on them (resolve them
   * with `resume(runId, results)`). A paused run comes back as it is, with its `pending` calls.
   * Given a `state` instead of an id: a stored run's continues through its store; one without a
   * `runId` continues in this process, from where its transcript leaves off.
   */
  async resumeRun(
    runId: string | RunState,
    ...[options]: OptionsArg<Deps, ContinueOptions<Deps>>
  ): Promise<Result<Output>> {
    const opts = (options ?? {}) as ContinueOptions<Deps>;
    if (opts.onDelta !== undefined) requireStreaming(this.engine.model);
    if (isStateGiven(runId)) {
      const state = this.readOwnState(runId, 'resumeRun', storeFor(opts, this.store));
      const id = state.origin.runId;
      if (id !== undefined)
        return this.resumeRun(id, ...([opts] as OptionsArg<Deps, ContinueOptions<Deps>>));
      return continueState(this.stored(), state, () =>
        runSettings<Deps>(this.defaults, opts, opts.onDelta),
      );
    }
    const store = requireStore(opts, this.store, 'resumeRun');
    const withId = { ...opts, runId }; // the stored run's id goes to the run's trace
    return continueStored(this.stored(), store, runId, opts.owner, () =>
      runSettings<Deps>(this.defaults, withId, opts.onDelta),
    );
  }

  /**
   * A resume's state and its `resolve` step: the results are matched to the history's pending
   * calls (each resolved exactly once, approved calls advertised) before anything runs; the
   * instructions and the prompt are what the resolved history continues with. `stored`: the
   * history is a stored run's, processed when the run started. A run that handed off resumes in
   * the agent answering it (`turns`: the run's own model turns, to find its handoffs).
   */
  private async resumeState(
    history: readonly Message[],
    results: DeferredResults,
    opts: ResumeOptions<Deps>,
    stored: boolean,
    turns: number | undefined,
  ): Promise<PreparedRun<Deps, Output>> {
    const prompt = opts.prompt ?? '';
    const { run, processed, parts } = await this.start(
      prompt,
      { ...opts, history },
      opts.onDelta,
      stored,
    );
    try {
      const handoff = this.activeAgent(processed, turns);
      const engine = handoff?.active.engine ?? this.engine;
      const { checkApprovedTools, matchResolutions } = await resumeCalls();
      const resolutions = matchResolutions(unansweredCalls(processed), results);
      checkApprovedTools(engine, resolutions);
      const memory = await startMemory(
        this.memory,
        run,
        prompt,
        processed,
        storeFor(opts, this.store),
      );
      const step: Step = {
        kind: 'resolve',
        resolutions,
        system: withRecalled(
          handoff === undefined
            ? await instructionsText(this.instructions, run)
            : await handoff.active.instructions(run),
          memory?.recalled,
        ),
        prompt: prompt !== '' || parts.length > 0 ? promptMessage(prompt, parts) : undefined,
      };
      const state = new RunProgress(run, [...processed], this.origin(opts));
      memory?.attach(state, processed.length);
      state.handoffLimit = this.engine.maxHandoffs;
      if (handoff === undefined) return { state, step, engine, decoder: this.decoder };
      state.handoffs = handoff.path;
      return { state, step, engine, decoder: handoff.active.decoder as OutputDecoder<Output> };
    } catch (error) {
      run.release(error);
      throw error;
    }
  }

  /**
   * Reads a state given to `door`: a state of another agent is refused, and so is a stored run's
   * state where no store is at hand — the store's record is the run, and continuing a copy
   * elsewhere would fork it (drop `runId` from the state to do so on purpose).
   */
  private readOwnState(value: RunState, door: string, store: RunStore | undefined): ReadState {
    const state = readState(value);
    const { agent, runId } = state.origin;
    if (agent !== this.name)
      throw new RunInputError(
        `${door}: the state belongs to agent ${JSON.stringify(agent)}, not ${JSON.stringify(this.name)}`,
      );
    if (runId !== undefined && store === undefined)
      throw new RunInputError(
        `${door}: the state is stored run ${JSON.stringify(runId)}'s; continue it through its store (the agent's \`store\` or options.store), or drop its \`runId\` to continue a copy without one`,
      );
    return state;
  }

  /** This agent as its stored runs see it. */
  private stored(): StoredAgent<Deps, Output> {
    return {
      name: this.name,
      engine: this.engine,
      decoder: this.decoder,
      active: (messages, turns) => this.activeAgent(messages, turns),
    };
  }

  /** This agent as the target of another's handoff. */
  private asHandoffTarget(): HandoffTarget<Deps> {
    return {
      name: this.name,
      engine: this.engine,
      decoder: this.decoder,
      instructions: async (run) => instructionsText(this.instructions, run),
    };
  }

  /** The agent answering a run of this one that handed off (see `activeAgent`). */
  private activeAgent(messages: readonly Message[], turns: number | undefined) {
    return this.engine.handoffs && activeAgent(this.asHandoffTarget(), messages, turns);
  }

  /**
   * This agent as a tool for another agent with the same `Deps`: the model passes `{ prompt }`,
   * the sub-run gets the delegating run's deps and signal, and the output is rendered to text
   * (strings as-is, anything else as JSON, or by `render`).
   */
  asTool(name: string, description: string, options: AgentToolOptions<Output> = {}): Tool<Deps> {
    const runner = {
      run: (prompt: string, o: { deps: Deps; signal: AbortSignal; owner?: string }) =>
        this.runWith(prompt, o),
    };
    return agentTool<Deps, Output>(runner, name, description, options);
  }

  /**
   * The run-start pipeline (spec §4.1): processor, validation, instructions, repair, prompt.
   * Synchronous when nothing in it waits (no history processor, memory or instructions function:
   * the common case); a promise otherwise. Throws (or rejects) with the run's input error.
   */
  protected prepare(
    prompt: string,
    options: RunOptionsBase & { deps?: Deps },
    onDelta: DeltaHandler | undefined,
  ): RunProgress<Deps> | Promise<RunProgress<Deps>> {
    const started = this.start(prompt, options, onDelta);
    return started instanceof Promise
      ? started.then((s) => this.progress(prompt, options, s))
      : this.progress(prompt, options, started);
  }

  /** A started run's state: memory recalled, the first request's messages built. */
  private progress(
    prompt: string,
    options: RunOptionsBase & { deps?: Deps },
    { run, processed, parts }: StartedRun<Deps>,
  ): RunProgress<Deps> | Promise<RunProgress<Deps>> {
    try {
      const fixed = this.fixedInstructions;
      if (this.memory === undefined && fixed !== undefined) {
        const messages = firstMessages(fixed, processed, prompt, parts);
        return this.newProgress(run, messages, options, undefined);
      }
      return this.progressAfterMemory(prompt, options, run, processed, parts).catch(
        (error: unknown) => {
          run.release(error);
          throw error;
        },
      );
    } catch (error) {
      run.release(error);
      throw error;
    }
  }

  /** `progress` when memory is recalled or the instructions are resolved first. */
  private async progressAfterMemory(
    prompt: string,
    options: RunOptionsBase & { deps?: Deps },
    run: RunSettings<Deps>,
    processed: readonly Message[],
    parts: readonly Part[],
  ): Promise<RunProgress<Deps>> {
    const store = storeFor(options, this.store);
    const memory = await startMemory(this.memory, run, prompt, processed, store);
    const messages = await buildMessages(
      this.instructions,
      run,
      processed,
      prompt,
      parts,
      memory?.recalled,
    );
    return this.newProgress(run, messages, options, memory);
  }

  /** The run's state over its first request's `messages`. */
  private newProgress(
    run: RunSettings<Deps>,
    messages: Message[],
    options: RunOptionsBase & { deps?: Deps },
    memory: Awaited<ReturnType<typeof startMemory<Deps>>>,
  ): RunProgress<Deps> {
    const state = new RunProgress(run, messages, this.origin(options));
    memory?.attach(state, messages.length - 1);
    state.compactions = carriedCompactions(options, state.messages, this.historyProcessor);
    return state;
  }

  /** Who a run of this agent is, as its state names it (a stored run's begin sets its own). */
  private origin(options: { owner?: string | undefined }): StateOrigin {
    return { agent: this.name, owner: options.owner, startedAt: Date.now() };
  }

  /**
   * A run's settings, its processed and validated history, and its prompt parts. Synchronous
   * without a history processor; throws (or rejects) with the run's input error.
   */
  private start(
    prompt: string,
    options: RunOptionsBase & { deps?: Deps },
    onDelta: DeltaHandler | undefined,
    processed = false,
  ): StartedRun<Deps> | Promise<StartedRun<Deps>> {
    if (typeof prompt !== 'string')
      throw new RunInputError(`prompt must be a string, got ${typeof prompt}`);
    const run = runSettings(this.defaults, options, onDelta);
    try {
      const history = options.history ?? [];
      const processor = processed ? undefined : this.historyProcessor;
      const copied = processHistory(processor, history, run);
      if (!(copied instanceof Promise)) return checkedStart(run, copied, options.parts);
      return copied.then(
        (messages) => checkedStart(run, messages, options.parts),
        (error: unknown) => {
          run.release(error);
          throw error;
        },
      );
    } catch (error) {
      run.release(error);
      throw error;
    }
  }
}

/** Whether a door was given a state value (not messages, not a run id). */
function isStateGiven(value: unknown): value is RunState {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * A stored run's options with its id: the caller's, else a new UUID — chosen before the run
 * starts, so its trace carries the id of the stored run (`golem.run.id`) whoever chose it.
 */
function withRunId<O extends { runId?: string }>(options: O): O {
  return options.runId === undefined
    ? { ...options, runId: globalThis.crypto.randomUUID() }
    : options;
}
