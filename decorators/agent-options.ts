import type {
  Guardrails,
  HistoryProcessor,
  HostedTool,
  ModelSettings,
  UsageLimit,
} from '../src/core/index';

/**
 * What `@Agent(options)` declares for every instance of the class: the engine options that make
 * sense per class (see `AgentConfig` in `golem` for each one's default and validation).
 * Per-instance concerns (the model object, `onEvent`, `sleep`, `retryBackoff`) are given to
 * `agentFromClass`.
 */
export interface AgentOptions {
  /**
   * The name of the model binding this agent uses (`'default'`, `'fast'`, `'openai:gpt-4o-mini'`).
   * The container resolves it; `agentFromClass` takes the model object instead. Default `'default'`.
   */
  readonly model?: string;
  /** Model turns per loop execution; default 10. */
  readonly maxIterations?: number;
  /** Provider attempts per turn for retryable failures; default 1. */
  readonly maxAttempts?: number;
  /** Correction rounds for rejected output (validation failures); default 0. */
  readonly outputRetries?: number;
  /** Default correction budget per tool (argument validation failures); default 0. */
  readonly toolRetries?: number;
  /** Default per-execution tool deadline in ms. */
  readonly toolTimeout?: number;
  /** The only tool advertised to the model (a tool name). */
  readonly toolChoice?: string;
  /** Run consecutive non-sequential calls of a batch concurrently; default false. */
  readonly parallelToolCalls?: boolean;
  readonly usageLimit?: UsageLimit;
  readonly modelSettings?: ModelSettings;
  readonly historyProcessor?: HistoryProcessor;
  /**
   * Let runs pause on deferred calls (approval-gated tools). The class must then declare
   * `declare readonly [PAUSABLE_TYPE]: true` so `run()` is typed to return the `Result` union.
   */
  readonly deferredTools?: boolean;
  /** Whole-run deadline in ms. */
  readonly runTimeout?: number;
  /** Deadline of each model call (its stream included) in ms; expiry is `TurnTimeoutError`. */
  readonly turnTimeout?: number;
  /** Longest wait in ms a provider may impose before a retry; default 60 000. */
  readonly maxRetryWait?: number;
  /** Provider-hosted tools (`webSearchTool()`…) the provider runs; never executed by Golem. */
  readonly hostedTools?: readonly HostedTool[];
  /** Guardrail objects for every instance (run before the class's `@Guardrail` methods of a phase). */
  readonly guardrails?: Guardrails;
  /**
   * What the agent does, for the agents and people choosing it (a handoff's default description,
   * its A2A card); never sent to its own model.
   */
  readonly description?: string;
}

/** The option names `@Agent` accepts, for validation. */
export const AGENT_OPTION_NAMES: readonly (keyof AgentOptions)[] = Object.freeze([
  'model',
  'maxIterations',
  'maxAttempts',
  'outputRetries',
  'toolRetries',
  'toolTimeout',
  'toolChoice',
  'parallelToolCalls',
  'usageLimit',
  'modelSettings',
  'historyProcessor',
  'deferredTools',
  'runTimeout',
  'turnTimeout',
  'maxRetryWait',
  'hostedTools',
  'guardrails',
  'description',
]);
