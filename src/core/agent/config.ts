import type { PriceTable } from '../contract/cost';
import type { Compaction, CompactionOptions } from '../engine/compaction';
import type { Middleware } from '../engine/middleware';
import type { AgentMemory } from './memory-port';
import type { Handoff } from './handoffs';
import type { HostedTool } from '../contract/hosted-tool';
import type { JsonSchema } from '../kit/json';
import type { Message } from '../contract/message';
import type { Model } from '../contract/model';
import type { Part } from '../contract/part';
import type { DeltaHandler } from '../contract/model';
import type { ModelSettings } from '../contract/request';
import type { RunObserver } from '../engine/events';
import type { HistoryProcessor } from '../engine/history-processor';
import type { RunInstrumentation } from '../engine/instrumentation';
import type { Instructions } from '../engine/instructions';
import type { Backoff, Sleep } from '../engine/retry';
import type { OutputToolConfig } from '../engine/run-config';
import type { UsageLimit } from '../engine/usage-limit';
import type { Guardrails } from '../engine/guardrails';
import type { OutputDecoder } from '../output/decoder';
import type { Tool } from '../tool/tool';
import type { RunStore } from '../durable/port';

/** Everything an agent is configured with. Invalid values throw `ConfigError` at construction. */
export interface AgentConfig<Deps, Output> {
  /** The model (a `StreamingModel` for `runStream`; `FallbackModel` composes several). */
  model: Model;
  /** Turns the final response into `Output`; default `decodeText()` (then `Output` is `string`). */
  output?: OutputDecoder<Output>;
  /** System instructions: text, a function of the run context, or a list of both. */
  instructions?: Instructions<Deps>;
  tools?: readonly Tool<Deps>[];
  /** Model turns per loop execution; default 10, at least 1. */
  maxIterations?: number;
  /** Provider attempts per turn for retryable failures; default 1 (no retries). */
  maxAttempts?: number;
  /** Wait before retrying after the 1-based attempt failed; default 500 ms doubling, capped at 30 s. */
  retryBackoff?: Backoff;
  /**
   * Longest wait in ms a provider may impose before a retry (its `Retry-After`); default 60 000, at
   * most `MAX_TIMEOUT_MS`. A provider asking for longer ends the retries with
   * `RetryAfterTooLongError` instead of being retried early.
   */
  maxRetryWait?: number;
  /** Correction rounds a decoder may request with `ModelRetry`; default 0. */
  outputRetries?: number;
  /** Default correction budget per tool name; default 0. A tool's `maxRetries` overrides it. */
  toolRetries?: number;
  /** Default per-execution tool deadline in ms; default none. A tool's `timeout` overrides it. */
  toolTimeout?: number;
  /** The only registered tool advertised to the model. */
  toolChoice?: string;
  /** Run consecutive non-sequential calls of a batch concurrently; default false. */
  parallelToolCalls?: boolean;
  usageLimit?: UsageLimit;
  /** Native structured output: the schema travels on every request. Exclusive with `outputTool`. */
  outputSchema?: JsonSchema | string;
  /** Tool-mode structured output. Exclusive with `outputSchema`. */
  outputTool?: OutputToolConfig;
  historyProcessor?: HistoryProcessor;
  /** Request tuning; a run's `modelSettings` are merged over these (shallow). */
  modelSettings?: ModelSettings;
  /** Observes every run of this agent (before a run's own observer). */
  onEvent?: RunObserver;
  /** Whole-run deadline in ms; default none. */
  runTimeout?: number;
  /**
   * Deadline of each model call (one provider attempt, its whole stream included) in ms; default
   * none. Expiry fails the attempt with the retryable `TurnTimeoutError`, so `maxAttempts` retries it.
   */
  turnTimeout?: number;
  /** How retry waits happen; inject one in tests so they never wait. */
  sleep?: Sleep;
  /**
   * Let runs pause on deferred tool calls (approval-gated tools, `requireApproval`,
   * `deferExternal`) and be resumed with `agent.resume`. Off by default: a deferral then fails
   * the run at the `tool` stage, and `run()` is typed to return a completed result.
   */
  deferredTools?: boolean;
  /**
   * Checkpoint every run in this store (see durable runs): runs survive crashes and restarts,
   * `run(prompt, { conversation })` continues stored conversations, `resumeRun(runId)` continues
   * an interrupted run. Default none (runs live in memory only).
   */
  store?: RunStore;
  /**
   * The name stored with this agent's runs (for listing and operators) and reported to
   * instrumentation (`gen_ai.agent.name`); default `'agent'`.
   */
  name?: string;
  /**
   * What the agent does, in a sentence or two, for the agents and people choosing it: the
   * default description of a handoff to it, its A2A agent card (`golem/a2a`) and
   * {@link Agent.describe}. Never sent to its own model. Default none.
   */
  description?: string;
  /**
   * Traces and measures every run (e.g. `otelInstrumentation()` from `golem/otel`: OpenTelemetry
   * GenAI spans and metrics). Default none.
   */
  instrumentation?: RunInstrumentation;
  /**
   * Prices every response (`priceTable({...})`, or `genaiPrices()` from `golem/prices`): the
   * result gets `cost`, events and spans carry it, `usageLimit.cost` can bound it. Default none.
   */
  prices?: PriceTable;
  /**
   * Provider-hosted tools offered on every request (`webSearchTool()`, `fileSearchTool({…})`,
   * `codeInterpreterTool()`): the provider runs them inside the model call and Golem never
   * executes them; their calls and citations come back on the assistant messages
   * (`hostedToolCalls`, `citations`). Adapters that cannot offer one fail before sending.
   */
  hostedTools?: readonly HostedTool[];
  /**
   * Checks on the run's input (before the first model call, or alongside it), its output (after
   * decoding) and tool calls (arguments before, result after). A check passes, rewrites, or trips:
   * the run fails at the `guardrail` stage, or (opt-in `onTrip: 'retry'`) the model corrects itself.
   */
  guardrails?: Guardrails<Deps, Output>;
  /**
   * Keeps each request under a token budget: above `maxTokens` (estimated as `contextTokens`),
   * old tool results are cleared and older turns summarised (or the provider compacts, policy
   * `provider`) while the newest turns stay verbatim. The run's `messages` keep the originals;
   * `result.compactions` records each compaction. See the context-compaction guide. Default none.
   */
  compaction?: CompactionOptions;
  /**
   * Layers around every model call and tool execution, the first outermost: change requests,
   * responses, fragments and tool results, or answer without the provider (`responseCache()`),
   * wait (`rateLimit()`) or refuse (`spendCap()`) — see `golem/middleware` and the middleware
   * guide. Default none.
   */
  middleware?: readonly Middleware[];
  /**
   * Remembers across runs and threads (`new Memory({...})` from `golem/memory`, or any
   * `AgentMemory`): what it recalls is appended to the instructions before the first model call,
   * its tools join the agent's, and a completed run's new messages are given to it. Default none.
   */
  memory?: AgentMemory;
  /**
   * Agents this one may hand the conversation to: the model sees a `transfer_to_<name>` tool for
   * each, and calling it continues the same run with the target's instructions, tools and output
   * decoder (optionally with an input filter over the history). The result's `agent` and
   * `handoffs` name who answered and the path; see the handoffs guide. Default none.
   */
  handoffs?: readonly Handoff<Deps, Output>[];
  /** How many handoffs one run may take, over every agent it passes through; default 5. */
  maxHandoffs?: number;
}

/**
 * Options of one run.
 * @inline
 */
export interface RunOptionsBase {
  /** Earlier conversation (typically a previous result's `messages`). */
  history?: readonly Message[];
  /**
   * The compactions recorded with `history` (a previous result's `compactions`): the run starts
   * from the same compacted context instead of compacting again. Positions must fit `history`.
   * A stored conversation brings its own. Default none.
   */
  compactions?: readonly Compaction[];
  /** Cancels the run. */
  signal?: AbortSignal;
  /** Parts (images, documents, audio) appended to the prompt message. */
  parts?: readonly Part[];
  /** Merged over the agent's `modelSettings` (shallow). */
  modelSettings?: ModelSettings;
  /** Observes this run only (after the agent's `onEvent`). */
  observer?: RunObserver;
  /**
   * Middleware for this run only, wrapped outside the agent's own `middleware` around every model
   * call and tool execution of the run (handoffs included; an agent-as-tool's inner run is not):
   * per-request logging, a test's stand-in, an eval's recorded traffic (`golem/evals` cassettes).
   * Default none.
   */
  middleware?: readonly Middleware[];
  /** Deadline for this run in ms. */
  timeout?: number;
  /** Replaces the agent's `turnTimeout` for this run (ms; 0 = no turn deadline). */
  turnTimeout?: number;
  /**
   * Continue the stored conversation with this id (created if new) and append this run to it;
   * needs a store. Exclusive with `history`.
   */
  conversation?: string;
  /** The stored run's id (default a random UUID); must be new. Needs a store. */
  runId?: string;
  /** Checkpoint this run in this store instead of the agent's `store`. */
  store?: RunStore;
  /**
   * Who the stored run belongs to (a tenant or user key; needs a store). A run started with an
   * owner is stored with it (and so is a conversation it creates); `resume`, `resumeRun`,
   * `loadRun` and `listRuns` given an owner see only that owner's runs — any other is reported
   * exactly as a run that does not exist. Without `owner` a call is unscoped (an operator's).
   */
  owner?: string;
}

/** Run options; `deps` is required unless `Deps` admits `undefined`. */
export type RunOptions<Deps> = RunOptionsBase &
  (undefined extends Deps ? { deps?: Deps } : { deps: Deps });

/** Options of a streaming run. */
export type StreamOptions<Deps> = RunOptions<Deps> & {
  /** Receives fragments as they arrive, in addition to (or instead of) iterating the stream. */
  onDelta?: DeltaHandler;
};

/** Options of a resumed run; `prompt` optionally continues the conversation. */
export type ResumeOptions<Deps> = Omit<
  RunOptions<Deps>,
  'history' | 'parts' | 'conversation' | 'runId'
> & {
  prompt?: string;
  parts?: readonly Part[];
  /** Streams the resumed run's model fragments (needs a `StreamingModel`; streamed turns are single-attempt). */
  onDelta?: DeltaHandler;
};

/** Options of `resumeRun`: those of a run, without what a stored run already has. */
export type ContinueOptions<Deps> = Omit<
  RunOptions<Deps>,
  'history' | 'parts' | 'conversation' | 'runId'
> & {
  /** Streams the continued run's model fragments (needs a `StreamingModel`; streamed turns are single-attempt). */
  onDelta?: DeltaHandler;
};

/** The trailing options argument: optional exactly when `Deps` admits `undefined`. */
export type OptionsArg<Deps, O> = undefined extends Deps ? [options?: O] : [options: O];
