import type { Delta } from './model/delta';
import { describeError } from './model/error-base';
import type { Message } from './model/message';
import { cloneMessage } from './model/message';
import type { DeltaHandler } from './model/model';
import { isStreamingModel } from './model/model';
import type { Part } from './model/part';
import type { ModelSettings } from './model/request';
import type { AgentConfig, OptionsArg, RunOptions, RunOptionsBase, StreamOptions } from './agent-config';
import { resolveConfig } from './agent-validate';
import { DeltaQueue } from './engine/delta-stream';
import { ConfigError, RunInputError } from './engine/errors';
import type { RunObserver } from './engine/events';
import type { HistoryProcessor } from './engine/history-processor';
import type { Instructions, RunContext } from './engine/instructions';
import { resolveInstructions } from './engine/instructions';
import { repairHistory } from './engine/repair';
import type { Result } from './engine/result';
import { executeRun } from './engine/run';
import type { EngineConfig, RunSettings } from './engine/run-config';
import { RunState } from './engine/run-state';
import { validateHistory, validatePromptParts } from './engine/validate-input';
import type { OutputDecoder } from './output/decoder';
import { decodeText } from './output/decode-text';

/** A streaming run: iterate it for deltas; `result` settles with the run. */
export interface RunStream<Output> extends AsyncIterable<Delta> {
  readonly result: Promise<Result<Output>>;
}

/**
 * An agent: a model, instructions, tools and a typed output boundary. Construction validates
 * the configuration (throwing `ConfigError`); runs fail with `RunError` carrying partial evidence.
 */
export class Agent<Deps = undefined, Output = string> {
  /** @internal */
  protected readonly engine: EngineConfig<Deps>;
  /** @internal */
  protected readonly decoder: OutputDecoder<Output>;
  private readonly instructions: Instructions<Deps> | undefined;
  private readonly historyProcessor: HistoryProcessor | undefined;
  private readonly modelSettings: ModelSettings | undefined;
  private readonly onEvent: RunObserver | undefined;
  private readonly runTimeout: number | undefined;

  constructor(config: AgentConfig<Deps, Output>) {
    this.engine = resolveConfig(config);
    this.decoder = config.output ?? (decodeText() as unknown as OutputDecoder<Output>);
    this.instructions = config.instructions;
    this.historyProcessor = config.historyProcessor;
    this.modelSettings = config.modelSettings;
    this.onEvent = config.onEvent;
    this.runTimeout = config.runTimeout;
  }

  /** Runs the agent on `prompt` (after `options.history`, if any) and decodes the final answer. */
  async run(prompt: string, ...[options]: OptionsArg<Deps, RunOptions<Deps>>): Promise<Result<Output>> {
    const state = await this.prepare(prompt, (options ?? {}) as RunOptions<Deps>, undefined);
    return executeRun(this.engine, this.decoder, state);
  }

  /**
   * Runs like `run` while streaming every model fragment. Iterate the returned stream for deltas
   * (or pass `onDelta`); `result` settles with the same result shape as `run`. Streamed turns are
   * single-attempt. A model without streaming fails up front with `ConfigError`.
   */
  runStream(prompt: string, ...[options]: OptionsArg<Deps, StreamOptions<Deps>>): RunStream<Output> {
    const opts = (options ?? {}) as StreamOptions<Deps>;
    const queue = new DeltaQueue();
    const handler: DeltaHandler = async (delta) => {
      queue.push(delta);
      if (opts.onDelta !== undefined) await opts.onDelta(delta);
    };
    const result = (async () => {
      try {
        if (!isStreamingModel(this.engine.model)) {
          throw new ConfigError(`model ${this.engine.model.name ?? '(unnamed)'} does not support streaming; use run() or a StreamingModel`);
        }
        const state = await this.prepare(prompt, opts, handler);
        return await executeRun(this.engine, this.decoder, state);
      } finally {
        queue.close();
      }
    })();
    result.catch(() => undefined);
    return Object.assign(queue, { result }) as unknown as RunStream<Output>;
  }

  /** The run-start pipeline (spec §4.1): processor, validation, instructions, repair, prompt. */
  protected async prepare(prompt: string, options: RunOptionsBase & { deps?: Deps }, onDelta: DeltaHandler | undefined, appendPrompt = true): Promise<RunState<Deps>> {
    if (typeof prompt !== 'string') throw new RunInputError(`prompt must be a string, got ${typeof prompt}`);
    const run = this.runSettings(options, onDelta);
    const history = await this.processHistory(options.history ?? [], run.signal);
    const parts: readonly Part[] = options.parts ?? [];
    if (!Array.isArray(parts)) throw new RunInputError('parts must be an array of image parts');
    validatePromptParts(parts);
    validateHistory(history);
    const ctx: RunContext<Deps> = { deps: run.deps, signal: run.signal };
    const instructions = await resolveInstructions(this.instructions, ctx);
    const messages: Message[] = [];
    if (instructions !== '') messages.push({ role: 'system', content: instructions });
    for (const message of repairHistory(history)) if (message.role !== 'system') messages.push(message);
    if (appendPrompt) {
      const user: Message = { role: 'user', content: prompt };
      if (parts.length > 0) user.parts = [...parts];
      messages.push(user);
    }
    return new RunState(run, messages);
  }

  private runSettings(options: RunOptionsBase & { deps?: Deps }, onDelta: DeltaHandler | undefined): RunSettings<Deps> {
    if (options.observer !== undefined && typeof options.observer !== 'function') throw new RunInputError('observer must be a function');
    const signals: AbortSignal[] = [];
    if (options.signal !== undefined) signals.push(options.signal);
    for (const timeout of [this.runTimeout, options.timeout]) {
      if (timeout === undefined || timeout === 0) continue;
      if (typeof timeout !== 'number' || Number.isNaN(timeout) || timeout < 0) throw new RunInputError(`timeout must be a number of ms >= 0, got ${String(timeout)}`);
      signals.push(AbortSignal.timeout(timeout));
    }
    const signal = signals.length === 0 ? new AbortController().signal : signals.length === 1 ? (signals[0] as AbortSignal) : AbortSignal.any(signals);
    const observers = [this.onEvent, options.observer].filter((o): o is RunObserver => o !== undefined);
    const merged = { ...this.modelSettings, ...options.modelSettings };
    return {
      deps: options.deps as Deps,
      signal,
      observers,
      settings: Object.keys(merged).length === 0 ? undefined : merged,
      onDelta,
    };
  }

  private async processHistory(history: readonly Message[], signal: AbortSignal): Promise<Message[]> {
    if (!Array.isArray(history)) throw new RunInputError('history must be an array of messages');
    const copy = history.map((m) => (typeof m === 'object' && (m as unknown) !== null ? cloneMessage(m) : m));
    if (this.historyProcessor === undefined) return copy;
    try {
      const processed = await this.historyProcessor(copy, { signal });
      if (processed === undefined || processed === null) return [];
      if (!Array.isArray(processed)) throw new TypeError('it returned something other than an array of messages');
      return processed;
    } catch (cause) {
      throw new RunInputError(`history processor failed: ${describeError(cause)}`, { cause });
    }
  }
}
