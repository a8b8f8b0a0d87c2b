import { ConfigError, RunInputError } from '../engine/errors';
import type { RunObserver } from '../engine/events';
import type { HistoryProcessor } from '../engine/history-processor';
import type { Instructions, RunContext } from '../engine/instructions';
import { resolveInstructions } from '../engine/instructions';
import { repairHistory } from '../engine/repair';
import type { RunSettings } from '../engine/run-config';
import type { TraceStarter } from './observability';
import type { SignalSource } from '../engine/run-signal';
import type { RunSignal } from '../engine/run-signal';
import { linkRunSignal } from '../engine/run-signal';
import type { TraceHandle } from '../engine/instrumentation';
import { withLazySignal } from '../engine/lazy-signal';
import { describeError } from '../kit/error-base';
import { isArrayValue, isRecord } from '../kit/guards';
import type { Message } from '../contract/message';
import { cloneMessage } from '../contract/message';
import type { DeltaHandler, Model } from '../contract/model';
import { isStreamingModel } from '../contract/model';
import type { Part } from '../contract/part';
import type { ModelSettings } from '../contract/request';
import { timeoutProblem } from '../kit/timeouts';
import type { RunOptionsBase } from './config';
import type { RunStore } from '../durable/port';

/** The agent-level defaults a run's settings derive from. Internal. */
export interface SettingsDefaults {
  readonly runTimeout: number | undefined;
  readonly turnTimeout: number;
  readonly onEvent: RunObserver | undefined;
  readonly modelSettings: ModelSettings | undefined;
  /** Starts a run's trace when the agent has an `instrumentation`. */
  readonly startTrace?: TraceStarter | undefined;
}

/** Validates a run's options and derives its settings (signal, deadlines, observers). Internal. */
export function runSettings<Deps>(
  defaults: SettingsDefaults,
  options: RunOptionsBase & { deps?: Deps },
  onDelta: DeltaHandler | undefined,
): RunSettings<Deps> {
  if (options.observer !== undefined && typeof options.observer !== 'function')
    throw new RunInputError('observer must be a function');
  const deadlines: number[] = [];
  for (const timeout of [defaults.runTimeout, options.timeout]) {
    if (timeout === undefined || timeout === 0) continue;
    const problem = timeoutProblem(timeout);
    if (problem !== undefined)
      throw new RunInputError(`timeout ${problem}, got ${String(timeout)}`);
    deadlines.push(timeout);
  }
  const turnTimeout = options.turnTimeout ?? defaults.turnTimeout;
  const turnProblem = timeoutProblem(turnTimeout);
  if (turnProblem !== undefined)
    throw new RunInputError(`turnTimeout ${turnProblem}, got ${String(turnTimeout)}`);
  const trace = defaults.startTrace?.({
    stream: onDelta !== undefined,
    conversation: options.conversation,
    runId: options.runId,
  });
  const link = linkRunSignal(options.signal, deadlines);
  const { release } = link;
  const observers = [defaults.onEvent, options.observer, trace?.observer].filter(
    (o): o is RunObserver => o !== undefined,
  );
  const merged = { ...defaults.modelSettings, ...options.modelSettings };
  return new Settings(link, {
    deps: options.deps as Deps,
    observers,
    settings: Object.keys(merged).length === 0 ? undefined : merged,
    onDelta,
    turnTimeout,
    release:
      trace === undefined
        ? release
        : (error?: unknown) => {
            release();
            trace.end(error);
          },
    trace,
  });
}

/** A run's settings; `signal` and `aborted` read through the run's (possibly lazy) signal. */
class Settings<Deps> implements RunSettings<Deps> {
  readonly deps: Deps;
  readonly observers: readonly RunObserver[];
  readonly settings: ModelSettings | undefined;
  readonly onDelta: DeltaHandler | undefined;
  readonly turnTimeout: number;
  readonly release: (error?: unknown) => void;
  readonly trace: TraceHandle | undefined;

  constructor(
    private readonly link: RunSignal,
    fields: Omit<RunSettings<Deps>, 'signal' | 'aborted'>,
  ) {
    this.deps = fields.deps;
    this.observers = fields.observers;
    this.settings = fields.settings;
    this.onDelta = fields.onDelta;
    this.turnTimeout = fields.turnTimeout;
    this.release = fields.release;
    this.trace = fields.trace;
  }

  get signal(): AbortSignal {
    return this.link.signal;
  }

  get aborted(): boolean {
    return this.link.aborted;
  }

  get deferred(): boolean | undefined {
    return this.link.deferred;
  }
}

/** Copies the history and runs the history processor on the copy (spec §4.1 steps 1–2). Internal. */
export async function processHistory(
  processor: HistoryProcessor | undefined,
  history: readonly Message[],
  run: SignalSource,
): Promise<Message[]> {
  if (!isArrayValue(history)) throw new RunInputError('history must be an array of messages');
  if (history.length === 0 && processor === undefined) return [];
  const copy = history.map((m) =>
    typeof m === 'object' && (m as unknown) !== null ? cloneMessage(m) : m,
  );
  if (processor === undefined) return copy;
  try {
    const processed = await processor(copy, withLazySignal({}, run));
    if (processed === undefined || processed === null) return [];
    if (!isArrayValue(processed))
      throw new TypeError('it returned something other than an array of messages');
    return processed;
  } catch (cause) {
    throw new RunInputError(`history processor failed: ${describeError(cause)}`, { cause });
  }
}

/**
 * The first request's messages (spec §4.1 step 5): the resolved instructions as the one system
 * message, the repaired history without its system messages, then the prompt. Internal.
 */
export async function buildMessages<Deps>(
  instructions: Instructions<Deps> | undefined,
  run: RunSettings<Deps>,
  history: readonly Message[],
  prompt: string,
  parts: readonly Part[],
  appendPrompt: boolean,
): Promise<Message[]> {
  // Static text needs no resolution (the common case; saves a promise per run).
  const text =
    typeof instructions === 'string'
      ? instructions
      : await resolveInstructions(instructions, instructionsContext(run));
  const messages: Message[] = [];
  if (text !== '') messages.push({ role: 'system', content: text });
  for (const message of repairHistory(history))
    if (message.role !== 'system') messages.push(message);
  if (appendPrompt) {
    const user: Message = { role: 'user', content: prompt };
    if (parts.length > 0) user.parts = [...parts];
    messages.push(user);
  }
  return messages;
}

/** What instructions functions receive; the run's signal is read (or created) when they read it. */
function instructionsContext<Deps>(run: RunSettings<Deps>): RunContext<Deps> {
  return withLazySignal({ deps: run.deps }, run);
}

/** The store a run uses: its own, else the agent's; `conversation`/`runId` without one is an input error. Internal. */
export function storeFor(
  options: RunOptionsBase,
  agentStore: RunStore | undefined,
): RunStore | undefined {
  const store = options.store ?? agentStore;
  if (
    store === undefined &&
    (options.conversation !== undefined ||
      options.runId !== undefined ||
      options.owner !== undefined)
  )
    throw new RunInputError(
      '`conversation`, `runId` and `owner` need a run store: configure `store` on the agent or pass { store }',
    );
  return store;
}

/** The store `method(runId)` needs; none is an input error naming the fix. Internal. */
export function requireStore(
  options: { store?: RunStore },
  agentStore: RunStore | undefined,
  method: string,
): RunStore {
  const store = options.store ?? agentStore;
  if (store === undefined)
    throw new RunInputError(
      `${method}(runId) needs a run store: configure \`store\` on the agent or pass { store }`,
    );
  return store;
}

const STORE_METHODS = ['getRun', 'getConversation', 'listRuns', 'replaceRun', 'transaction', 'now'];

/** Validates the agent's `name` and `store` (after the engine options). Internal. */
export function durableConfig(config: { name?: unknown; store?: unknown }): {
  name: string;
  store: RunStore | undefined;
} {
  const { name, store } = config;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === ''))
    throw new ConfigError('Agent `name` must be a non-empty string (it is stored with its runs)');
  if (store !== undefined) {
    const missing = isRecord(store)
      ? STORE_METHODS.filter((m) => typeof store[m] !== 'function')
      : STORE_METHODS;
    if (missing.length > 0)
      throw new ConfigError(
        `Agent \`store\` must be a RunStore (e.g. sqliteStore() from golem/stores/sqlite); it lacks ${missing.join(', ')}`,
      );
  }
  return { name: name ?? 'agent', store: store as RunStore | undefined };
}

/** Throws `ConfigError` when `model` cannot stream (a run asked for deltas). Internal. */
export function requireStreaming(model: Model): void {
  if (!isStreamingModel(model))
    throw new ConfigError(
      `model ${model.name ?? '(unnamed)'} does not support streaming; use run() or a StreamingModel`,
    );
}
