import type { PriceTable } from '../contract/cost';
import type { HostedTool } from '../contract/hosted-tool';
import type { JsonSchema } from '../kit/json';
import type { DeltaHandler, Model } from '../contract/model';
import type { ModelSettings, ToolSpec } from '../contract/request';
import type { Tool } from '../tool/tool';
import type { Guardrails } from './guardrails';
import type { RunObserver } from './events';
import type { TraceHandle } from './instrumentation';
import type { Backoff, Sleep } from './retry';
import type { UsageLimit } from './usage-limit';
import type { RunScope } from './run-signal';
import type { CompactionPlan } from './compaction-plan';
import type { Middleware } from './middleware';
import type { RunMiddleware } from './run-middleware';
import type { HandoffInputFilter } from './handoff-types';
import type { OutputDecoder } from '../output/decoder';

/**
 * Tool-mode structured output: the schema becomes the parameters of a synthesized tool.
 * @inline
 */
export interface OutputToolConfig {
  name: string;
  description?: string;
  schema: JsonSchema | string;
}

/** The engine's view of an agent: validated, resolved, immutable. Internal. */
export interface EngineConfig<Deps> {
  readonly model: Model;
  /** Every registered tool by name. */
  readonly registered: ReadonlyMap<string, Tool<Deps>>;
  /** Tools the model may call this run (toolChoice applied), by name. */
  readonly advertised: ReadonlyMap<string, Tool<Deps>>;
  /** Specs sent on every request: advertised tools in order, then the output tool. */
  readonly specs: readonly ToolSpec[];
  readonly outputTool: { name: string; description: string; schema: JsonSchema } | undefined;
  readonly outputSchema: JsonSchema | undefined;
  readonly maxIterations: number;
  readonly maxAttempts: number;
  readonly backoff: Backoff;
  readonly sleep: Sleep;
  /** Longest wait (ms) a provider may impose before a retry; longer requests end the retries. */
  readonly maxRetryWait: number;
  /** The agent's per-call model deadline in ms; 0 = none (a run may override it). */
  readonly turnTimeout: number;
  readonly outputRetries: number;
  readonly toolRetries: number;
  readonly toolTimeout: number;
  readonly parallelToolCalls: boolean;
  readonly usageLimit: UsageLimit | undefined;
  /** Whether deferred calls may pause the run. */
  readonly deferredTools: boolean;
  /** Prices each response's usage (result `cost`, `usageLimit.cost`); absent = no cost. */
  readonly prices?: PriceTable | undefined;
  /** Provider-hosted tools sent on every request (never executed by the engine). */
  readonly hostedTools?: readonly HostedTool[] | undefined;
  /** Input, output and tool guardrails (absent: none). */
  readonly guardrails?: Guardrails<Deps> | undefined;
  /** Whether calls carry their `scope` (the model goes through middleware). */
  readonly scoped?: boolean | undefined;
  /** The agent's middleware with a `tool` hook, in order (absent: none). */
  readonly toolMiddleware?: readonly Middleware[] | undefined;
  /** The agent's `compaction`, resolved (absent: none). */
  readonly compaction?: CompactionPlan | undefined;
  /** The agents this one may hand off to, by transfer tool name (absent: none). */
  readonly handoffs?: ReadonlyMap<string, HandoffRoute<Deps>> | undefined;
  /** How many handoffs a run may take (counted over the run, every agent's). */
  readonly maxHandoffs: number;
}

/** Per-run settings derived from the agent and the run options. Internal. */
export interface RunSettings<Deps> extends RunScope {
  readonly deps: Deps;
  /**
   * The run's signal. A run with neither a caller's signal nor a deadline creates it on first
   * read (see `linkRunSignal`): the engine checks {@link RunSettings.aborted} instead, and hands
   * the signal out through lazy `signal` properties (call options, tool and decoder contexts).
   */
  readonly signal: AbortSignal;
  /** Whether the run is aborted, read without creating its signal. */
  readonly aborted: boolean;
  readonly observers: readonly RunObserver[];
  readonly settings: ModelSettings | undefined;
  /** Set for streaming runs. */
  readonly onDelta: DeltaHandler | undefined;
  /** Deadline of each model call (stream included) in ms, the run's own or the agent's; 0 = none. */
  readonly turnTimeout: number;
  /**
   * Unlinks the run's signal from the caller's signal and deadlines and ends the run's trace;
   * called once when the run ends (with the error when it failed before its loop started).
   */
  readonly release: (error?: unknown) => void;
  /** The run's trace, when the agent has an `instrumentation` that traces it. */
  readonly trace?: TraceHandle | undefined;
  /** The run's own middleware (`run(prompt, { middleware })`), outside the agent's; absent: none. */
  readonly middleware?: RunMiddleware | undefined;
}

/** An agent a run can hand off to, resolved. Internal. */
export interface HandoffTarget<Deps> {
  readonly name: string;
  readonly engine: EngineConfig<Deps>;
  readonly decoder: OutputDecoder<unknown>;
  /** The target's instructions for this run (`''`: none). */
  instructions(run: RunSettings<Deps>): Promise<string>;
}

/** A handoff an agent declares: the transfer tool the model sees and where it leads. Internal. */
export interface HandoffRoute<Deps> {
  /** The synthesized tool's spec (`transfer_to_<name>`). */
  readonly spec: ToolSpec;
  /** The target's name (as results and events name it). */
  readonly agent: string;
  /** Resolves the target (lazily: agents may hand off to each other). */
  readonly target: () => HandoffTarget<Deps>;
  readonly inputFilter?: HandoffInputFilter<Deps> | undefined;
}
