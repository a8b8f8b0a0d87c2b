import { RunInputError } from '../engine/errors';
import type { RunObserver } from '../engine/events';
import type { RunSettings } from '../engine/run-config';
import type { TraceStarter } from './observability';
import type { RunSignal } from '../engine/run-signal';
import { linkRunSignal } from '../engine/run-signal';
import type { TraceHandle } from '../engine/instrumentation';
import type { DeltaHandler } from '../contract/model';
import type { ModelSettings } from '../contract/request';
import { timeoutProblem } from '../kit/timeouts';
import type { RunOptionsBase } from './config';
import { runMiddleware, type RunMiddleware } from '../engine/run-middleware';
import { ConfigError } from '../kit/config-error';

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
  const deadlines = runDeadlines(defaults.runTimeout, options.timeout);
  const turnTimeout = options.turnTimeout ?? defaults.turnTimeout;
  const turnProblem = timeoutProblem(turnTimeout);
  if (turnProblem !== undefined)
    throw new RunInputError(`turnTimeout ${turnProblem}, got ${String(turnTimeout)}`);
  const middleware = runMiddlewareOption(options.middleware);
  const trace = defaults.startTrace?.({
    stream: onDelta !== undefined,
    conversation: options.conversation,
    runId: options.runId,
  });
  const link = linkRunSignal(options.signal, deadlines);
  const { release } = link;
  const observers =
    defaults.onEvent === undefined && options.observer === undefined && trace === undefined
      ? NO_OBSERVERS
      : [defaults.onEvent, options.observer, trace?.observer].filter(
          (o): o is RunObserver => o !== undefined,
        );
  return new Settings(link, {
    deps: options.deps as Deps,
    owner: options.owner,
    conversationId: options.conversation,
    observers,
    settings: mergedSettings(defaults.modelSettings, options.modelSettings),
    onDelta,
    turnTimeout,
    middleware,
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

/** The observers of a run nothing observes (shared; never changed). */
const NO_OBSERVERS: readonly RunObserver[] = Object.freeze([]);
/** The deadlines of a run without a timeout (shared; never changed). */
const NO_DEADLINES: readonly number[] = Object.freeze([]);

/** The run's deadlines: the agent's `runTimeout` and the run's `timeout` (0: none), checked. */
function runDeadlines(agent: number | undefined, run: number | undefined): readonly number[] {
  if ((agent === undefined || agent === 0) && (run === undefined || run === 0)) return NO_DEADLINES;
  const deadlines: number[] = [];
  for (const timeout of [agent, run]) {
    if (timeout === undefined || timeout === 0) continue;
    const problem = timeoutProblem(timeout);
    if (problem !== undefined)
      throw new RunInputError(`timeout ${problem}, got ${String(timeout)}`);
    deadlines.push(timeout);
  }
  return deadlines;
}

/** The agent's model settings under the run's; `undefined` when neither sets anything. */
function mergedSettings(
  agent: ModelSettings | undefined,
  run: ModelSettings | undefined,
): ModelSettings | undefined {
  if (agent === undefined && run === undefined) return undefined;
  const merged = { ...agent, ...run };
  return Object.keys(merged).length === 0 ? undefined : merged;
}

/** The run's `middleware` option, resolved; a malformed one is a `RunInputError`. */
function runMiddlewareOption(list: unknown): RunMiddleware | undefined {
  try {
    return runMiddleware(list);
  } catch (error) {
    if (ConfigError.is(error)) throw new RunInputError(error.message);
    throw error;
  }
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
  readonly middleware: RunMiddleware | undefined;
  readonly owner: string | undefined;
  readonly conversationId: string | undefined;

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
    this.middleware = fields.middleware;
    this.owner = fields.owner;
    this.conversationId = fields.conversationId;
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
