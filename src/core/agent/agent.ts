import type { Message } from '../contract/message';
import { isArrayValue } from '../kit/guards';
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
import { buildMessages, processHistory } from './run-start';
import type { SettingsDefaults } from './run-settings';
import { runSettings } from './run-settings';
import { requireStore, storeFor } from './run-store';
import type { DurableHost } from '../durable/durable-run';
import type { RunStore } from '../durable/port';
import type { AgentToolOptions } from './as-tool';
import { agentTool } from './as-tool';
import type { DeferredResults } from '../engine/deferred-types';
import type { Tool } from '../tool/tool';
import { durableConfig, requireStreaming, resolveConfig } from './validate';
import { traceStarter } from './observability';
import type { RunStream } from './stream';
import { continueStored, executeRun, resumeStored, runStored } from './lazy';
import { resumeCalls, resumeStreaming, runStreams } from './lazy';
import { RunInputError } from '../engine/errors';
import type { HistoryProcessor } from '../engine/history-processor';
import type { Instructions } from '../engine/instructions';
import { unansweredCalls } from '../engine/repair';
import type { Result, RunResult } from '../engine/result';
import type { EngineConfig } from '../engine/run-config';
import { RunState } from '../engine/run-state';
import { validateHistory, validatePromptParts } from '../engine/validate-input';
import type { OutputDecoder } from '../output/decoder';
import { decodeText } from '../output/decode-text';

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
  /** Where this agent's runs are checkpointed, if anywhere (see durable runs). */
  readonly store: RunStore | undefined;
  private readonly instructions: Instructions<Deps> | undefined;
  private readonly historyProcessor: HistoryProcessor | undefined;
  private readonly defaults: SettingsDefaults;

  constructor(config: AgentConfig<Deps, Output> & { deferredTools?: Pausable }) {
    this.engine = resolveConfig(config);
    ({ name: this.name, store: this.store } = durableConfig(config));
    this.decoder =
      config.output ?? (decodeText() as OutputDecoder<unknown> as OutputDecoder<Output>);
    this.instructions = config.instructions;
    this.historyProcessor = config.historyProcessor;
    this.defaults = {
      runTimeout: config.runTimeout,
      turnTimeout: this.engine.turnTimeout,
      onEvent: config.onEvent,
      modelSettings: config.modelSettings,
      startTrace: traceStarter(config.instrumentation, this.name, this.engine),
    };
  }

  /** Runs the agent on `prompt` (after `options.history`, if any) and decodes the final answer. */
  async run(
    prompt: string,
    ...[options]: OptionsArg<Deps, RunOptions<Deps>>
  ): Promise<RunResult<Output, Pausable>> {
    return (await this.runWith(prompt, options ?? {})) as RunResult<Output, Pausable>;
  }

  /** `run` with options typed loosely, for internal callers that always pass deps. */
  private async runWith(
    prompt: string,
    options: RunOptionsBase & { deps?: Deps },
  ): Promise<Result<Output>> {
    const store = storeFor(options, this.store);
    if (store !== undefined) {
      const stored = withRunId(options);
      return runStored(this.host(stored), store, prompt, stored, undefined);
    }
    const state = await this.prepare(prompt, options, undefined);
    try {
      return await executeRun(this.engine, this.decoder, state);
    } finally {
      state.run.release();
    }
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
          return await runStored(this.host(stored), store, prompt, stored, handler);
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
   * Resumes a run that paused on deferred calls: `history` is the paused result's messages (or
   * the id of a paused stored run, in any process) and `results` resolves every pending call
   * exactly once (validated before any model call). Approved calls re-run with `ctx.approved`;
   * denials and external results become the calls' results in emission order. An empty `prompt`
   * adds no user message. The run may pause again.
   */
  async resume(
    history: readonly Message[] | string,
    results: DeferredResults,
    ...[options]: OptionsArg<Deps, ResumeOptions<Deps>>
  ): Promise<Result<Output>> {
    const opts = (options ?? {}) as ResumeOptions<Deps>;
    if (opts.onDelta !== undefined) requireStreaming(this.engine.model);
    if (typeof history === 'string')
      return resumeStored(
        this.host({ ...opts, runId: history }),
        requireStore(opts, this.store, 'resume'),
        history,
        results,
      );
    const state = await this.resumeState(history, results, opts, undefined);
    try {
      return await executeRun(this.engine, this.decoder, state);
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
    history: readonly Message[] | string,
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
   */
  async resumeRun(
    runId: string,
    ...[options]: OptionsArg<Deps, ContinueOptions<Deps>>
  ): Promise<Result<Output>> {
    const opts = (options ?? {}) as ContinueOptions<Deps>;
    if (opts.onDelta !== undefined) requireStreaming(this.engine.model);
    const store = requireStore(opts, this.store, 'resumeRun');
    return continueStored(this.host({ ...opts, runId }), store, runId);
  }

  private async resumeState(
    history: readonly Message[],
    results: DeferredResults,
    opts: ResumeOptions<Deps>,
    attach: ((state: RunState<Deps>) => void) | undefined,
  ): Promise<RunState<Deps>> {
    const prompt = opts.prompt ?? '';
    const stored = attach !== undefined; // a stored run's history was processed when it started
    const { run, processed, parts } = await this.start(
      prompt,
      { ...opts, history },
      opts.onDelta,
      stored,
    );
    try {
      const { checkApprovedTools, matchResolutions, resolveCalls, spliceResolutions } =
        await resumeCalls();
      const resolutions = matchResolutions(unansweredCalls(processed), results);
      checkApprovedTools(this.engine, resolutions);
      const state = new RunState(run, [...processed]);
      attach?.(state);
      const resolved = await resolveCalls(this.engine, state, resolutions);
      state.messages = await buildMessages(
        this.instructions,
        run,
        spliceResolutions(processed, resolved),
        prompt,
        parts,
        prompt !== '' || parts.length > 0,
      );
      return state;
    } catch (error) {
      run.release(error);
      throw error;
    }
  }

  /**
   * This agent as the durable layer sees it, for one call's options (their `runId`, the stored
   * run's id, goes to the run's trace).
   */
  private host(
    options: RunOptionsBase & { deps?: Deps; prompt?: string; onDelta?: DeltaHandler },
  ): DurableHost<Deps, Output> {
    return {
      name: this.name,
      owner: options.owner,
      engine: this.engine,
      decoder: this.decoder,
      prepare: (prompt, history, onDelta) => this.prepare(prompt, { ...options, history }, onDelta),
      settings: () => runSettings<Deps>(this.defaults, options, options.onDelta),
      prepareResume: (history, results, attach) =>
        this.resumeState(history, results, options as ResumeOptions<Deps>, attach),
    };
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

  /** The run-start pipeline (spec §4.1): processor, validation, instructions, repair, prompt. */
  protected async prepare(
    prompt: string,
    options: RunOptionsBase & { deps?: Deps },
    onDelta: DeltaHandler | undefined,
  ): Promise<RunState<Deps>> {
    const { run, processed, parts } = await this.start(prompt, options, onDelta);
    try {
      return new RunState(
        run,
        await buildMessages(this.instructions, run, processed, prompt, parts, true),
      );
    } catch (error) {
      run.release(error);
      throw error;
    }
  }

  private async start(
    prompt: string,
    options: RunOptionsBase & { deps?: Deps },
    onDelta: DeltaHandler | undefined,
    processed = false,
  ) {
    if (typeof prompt !== 'string')
      throw new RunInputError(`prompt must be a string, got ${typeof prompt}`);
    const run = runSettings(this.defaults, options, onDelta);
    try {
      const history = options.history ?? [];
      const processor = processed ? undefined : this.historyProcessor;
      const copied = await processHistory(processor, history, run);
      const parts: readonly Part[] = options.parts ?? [];
      if (!isArrayValue(parts)) throw new RunInputError('parts must be an array of image parts');
      validatePromptParts(parts);
      validateHistory(copied);
      return { run, processed: copied, parts };
    } catch (error) {
      run.release(error);
      throw error;
    }
  }
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
