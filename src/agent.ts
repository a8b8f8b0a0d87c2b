import type { Delta } from './model/delta';
import { describeError } from './model/error-base';
import type { Message } from './model/message';
import { cloneMessage } from './model/message';
import { isArrayValue } from './model/guards';
import { timeoutProblem } from './model/timeouts';
import { linkRunSignal } from './engine/run-signal';
import type { DeltaHandler } from './model/model';
import { isStreamingModel } from './model/model';
import type { Part } from './model/part';
import type { ModelSettings } from './model/request';
import type {
  AgentConfig,
  OptionsArg,
  ResumeOptions,
  RunOptions,
  RunOptionsBase,
  StreamOptions,
} from './agent-config';
import type { AgentToolOptions } from './agent-tool';
import { agentTool } from './agent-tool';
import type { DeferredResults } from './engine/deferred-types';
import {
  checkApprovedTools,
  matchResolutions,
  resolveCalls,
  spliceResolutions,
} from './engine/resume';
import type { Tool } from './tool/tool';
import { resolveConfig } from './agent-validate';
import { DeltaQueue } from './engine/delta-stream';
import { ConfigError, RunInputError } from './engine/errors';
import type { RunObserver } from './engine/events';
import type { HistoryProcessor } from './engine/history-processor';
import type { Instructions, RunContext } from './engine/instructions';
import { resolveInstructions } from './engine/instructions';
import { repairHistory, unansweredCalls } from './engine/repair';
import type { Result, RunResult } from './engine/result';
import { executeRun } from './engine/run';
import type { EngineConfig, RunSettings } from './engine/run-config';
import { RunState } from './engine/run-state';
import { validateHistory, validatePromptParts } from './engine/validate-input';
import type { OutputDecoder } from './output/decoder';
import { decodeText } from './output/decode-text';

/** A streaming run: iterate it for deltas; `result` settles with the run. */
export interface RunStream<Output, Pausable extends boolean = false> extends AsyncIterable<Delta> {
  readonly result: Promise<RunResult<Output, Pausable>>;
}

/**
 * An agent: a model, instructions, tools and a typed output boundary. Construction validates
 * the configuration (throwing `ConfigError`); runs fail with `RunError` carrying partial evidence.
 */
export class Agent<Deps = unknown, Output = string, Pausable extends boolean = false> {
  /** @internal */
  protected readonly engine: EngineConfig<Deps>;
  /** @internal */
  protected readonly decoder: OutputDecoder<Output>;
  private readonly instructions: Instructions<Deps> | undefined;
  private readonly historyProcessor: HistoryProcessor | undefined;
  private readonly modelSettings: ModelSettings | undefined;
  private readonly onEvent: RunObserver | undefined;
  private readonly runTimeout: number | undefined;

  constructor(config: AgentConfig<Deps, Output> & { deferredTools?: Pausable }) {
    this.engine = resolveConfig(config);
    this.decoder =
      config.output ?? (decodeText() as OutputDecoder<unknown> as OutputDecoder<Output>);
    this.instructions = config.instructions;
    this.historyProcessor = config.historyProcessor;
    this.modelSettings = config.modelSettings;
    this.onEvent = config.onEvent;
    this.runTimeout = config.runTimeout;
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
    const state = await this.prepare(prompt, options, undefined);
    try {
      return await executeRun(this.engine, this.decoder, state);
    } finally {
      state.run.release();
    }
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
    const opts = (options ?? {}) as StreamOptions<Deps>;
    const queue = new DeltaQueue();
    const handler: DeltaHandler = async (delta) => {
      queue.push(delta);
      if (opts.onDelta !== undefined) await opts.onDelta(delta);
    };
    const result = (async () => {
      try {
        if (!isStreamingModel(this.engine.model)) {
          throw new ConfigError(
            `model ${this.engine.model.name ?? '(unnamed)'} does not support streaming; use run() or a StreamingModel`,
          );
        }
        const state = await this.prepare(prompt, opts, handler);
        try {
          return await executeRun(this.engine, this.decoder, state);
        } finally {
          state.run.release();
        }
      } finally {
        queue.close();
      }
    })();
    result.catch(() => undefined);
    return Object.assign(queue, { result: result as Promise<RunResult<Output, Pausable>> });
  }

  /**
   * Resumes a run that paused on deferred calls: `history` is the paused result's messages and
   * `results` resolves every pending call exactly once (validated before any model call).
   * Approved calls re-run with `ctx.approved`; denials and external results become the calls'
   * results in emission order. An empty `prompt` adds no user message. The run may pause again.
   */
  async resume(
    history: readonly Message[],
    results: DeferredResults,
    ...[options]: OptionsArg<Deps, ResumeOptions<Deps>>
  ): Promise<Result<Output>> {
    const opts = (options ?? {}) as ResumeOptions<Deps>;
    const prompt = opts.prompt ?? '';
    const { run, processed, parts } = await this.start(prompt, { ...opts, history }, undefined);
    try {
      const resolutions = matchResolutions(unansweredCalls(processed), results);
      checkApprovedTools(this.engine, resolutions);
      const state = new RunState(run, [...processed]);
      const resolved = await resolveCalls(this.engine, state, resolutions);
      state.messages = await this.build(
        run,
        spliceResolutions(processed, resolved),
        prompt,
        parts,
        prompt !== '' || parts.length > 0,
      );
      return await executeRun(this.engine, this.decoder, state);
    } finally {
      run.release();
    }
  }

  /**
   * This agent as a tool for another agent with the same `Deps`: the model passes `{ prompt }`,
   * the sub-run gets the delegating run's deps and signal, and the output is rendered to text
   * (strings as-is, anything else as JSON, or by `render`).
   */
  asTool(name: string, description: string, options: AgentToolOptions<Output> = {}): Tool<Deps> {
    const runner = {
      run: (prompt: string, o: { deps: Deps; signal: AbortSignal }) => this.runWith(prompt, o),
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
      return new RunState(run, await this.build(run, processed, prompt, parts, true));
    } catch (error) {
      run.release();
      throw error;
    }
  }

  private async start(
    prompt: string,
    options: RunOptionsBase & { deps?: Deps },
    onDelta: DeltaHandler | undefined,
  ) {
    if (typeof prompt !== 'string')
      throw new RunInputError(`prompt must be a string, got ${typeof prompt}`);
    const run = this.runSettings(options, onDelta);
    try {
      const processed = await this.processHistory(options.history ?? [], run.signal);
      const parts: readonly Part[] = options.parts ?? [];
      if (!isArrayValue(parts)) throw new RunInputError('parts must be an array of image parts');
      validatePromptParts(parts);
      validateHistory(processed);
      return { run, processed, parts };
    } catch (error) {
      run.release();
      throw error;
    }
  }

  private async build(
    run: RunSettings<Deps>,
    history: readonly Message[],
    prompt: string,
    parts: readonly Part[],
    appendPrompt: boolean,
  ): Promise<Message[]> {
    const ctx: RunContext<Deps> = { deps: run.deps, signal: run.signal };
    // Static text needs no resolution (the common case; saves a promise per run).
    const instructions =
      typeof this.instructions === 'string'
        ? this.instructions
        : await resolveInstructions(this.instructions, ctx);
    const messages: Message[] = [];
    if (instructions !== '') messages.push({ role: 'system', content: instructions });
    for (const message of repairHistory(history))
      if (message.role !== 'system') messages.push(message);
    if (appendPrompt) {
      const user: Message = { role: 'user', content: prompt };
      if (parts.length > 0) user.parts = [...parts];
      messages.push(user);
    }
    return messages;
  }

  private runSettings(
    options: RunOptionsBase & { deps?: Deps },
    onDelta: DeltaHandler | undefined,
  ): RunSettings<Deps> {
    if (options.observer !== undefined && typeof options.observer !== 'function')
      throw new RunInputError('observer must be a function');
    const deadlines: number[] = [];
    for (const timeout of [this.runTimeout, options.timeout]) {
      if (timeout === undefined || timeout === 0) continue;
      const problem = timeoutProblem(timeout);
      if (problem !== undefined)
        throw new RunInputError(`timeout ${problem}, got ${String(timeout)}`);
      deadlines.push(timeout);
    }
    const turnTimeout = options.turnTimeout ?? this.engine.turnTimeout;
    const turnProblem = timeoutProblem(turnTimeout);
    if (turnProblem !== undefined)
      throw new RunInputError(`turnTimeout ${turnProblem}, got ${String(turnTimeout)}`);
    const { signal, release } = linkRunSignal(options.signal, deadlines);
    const observers = [this.onEvent, options.observer].filter(
      (o): o is RunObserver => o !== undefined,
    );
    const merged = { ...this.modelSettings, ...options.modelSettings };
    return {
      deps: options.deps as Deps,
      signal,
      observers,
      settings: Object.keys(merged).length === 0 ? undefined : merged,
      onDelta,
      turnTimeout,
      release,
    };
  }

  private async processHistory(
    history: readonly Message[],
    signal: AbortSignal,
  ): Promise<Message[]> {
    if (!isArrayValue(history)) throw new RunInputError('history must be an array of messages');
    if (history.length === 0 && this.historyProcessor === undefined) return [];
    const copy = history.map((m) =>
      typeof m === 'object' && (m as unknown) !== null ? cloneMessage(m) : m,
    );
    if (this.historyProcessor === undefined) return copy;
    try {
      const processed = await this.historyProcessor(copy, { signal });
      if (processed === undefined || processed === null) return [];
      if (!isArrayValue(processed))
        throw new TypeError('it returned something other than an array of messages');
      return processed;
    } catch (cause) {
      throw new RunInputError(`history processor failed: ${describeError(cause)}`, { cause });
    }
  }
}
