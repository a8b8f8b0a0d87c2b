import type { Agent, CompletedResult, JsonValue, StandardSchemaV1, Tool } from '../core/index';

/** What a suspended step asks for (`ctx.suspend(request)`). */
export interface SuspendRequest<T> {
  /** Why the run waits, for operators and UIs. */
  reason?: string;
  /** Validates the data `runner.resume` gives (invalid data is refused, nothing recorded). */
  schema?: StandardSchemaV1<unknown, T>;
  /** JSON shown with the suspension (what is to be decided). */
  payload?: JsonValue;
}

/** What a step body gets. */
export interface StepContext {
  /** The workflow run's id. */
  readonly runId: string;
  /** The step's key (`name`, then `name#2`, `name#3` … for repeated names). */
  readonly step: string;
  /** The attempt, from 1 (retries and re-runs after a crash count up). */
  readonly attempt: number;
  /** Aborted when the run is cancelled, its lease is lost or the step's `timeout` passes. */
  readonly signal: AbortSignal;
  /**
   * Whether this attempt follows one that was cut short: the step was running when its process
   * stopped (a crash, a lost lease), so its side effects may have happened. Only on the first
   * attempt of an execution; a step resumed after `suspend` is not interrupted.
   */
  readonly interrupted: boolean;
  /**
   * Suspends the run until `runner.resume(runId, data)` gives this step its data; the body then
   * runs again and `suspend` returns the validated data instead. Call it at most once per step.
   */
  suspend<T = JsonValue>(request?: SuspendRequest<T>): Promise<T>;
}

/** A step body: its result (JSON, or `undefined`) is checkpointed. */
export type StepFn<T> = (ctx: StepContext) => T | Promise<T>;

/** How a step runs. */
export interface StepOptions<T> {
  /** Further attempts after a failure (default 0). */
  retries?: number;
  /** The wait before attempt `attempt + 1`, in ms (default the engine's `defaultBackoff`). */
  backoff?: (attempt: number) => number;
  /** Validates the output before it is checkpointed, and again when it is replayed. */
  output?: StandardSchemaV1<unknown, T>;
  /** Each attempt's time limit in ms (the step's `signal` aborts, the attempt fails). */
  timeout?: number;
}

/** Options of {@link WorkflowContext.runTool}. */
export interface RunToolOptions<Deps> {
  /** The tool's dependencies (`ctx.deps`). */
  deps?: Deps;
  /** Further attempts after the tool failed (default 0). */
  retries?: number;
  /** Each attempt's time limit in ms. */
  timeout?: number;
}

/** Options of {@link WorkflowContext.runAgent}. */
export interface RunAgentOptions<Deps> {
  /** The agent's dependencies for this run. */
  deps?: Deps;
}

/**
 * What a workflow's `run` gets: the steps. Every call is a durable step, keyed by its name and
 * call order; `run` itself must be deterministic apart from what its steps return.
 */
export interface WorkflowContext {
  /** The workflow run's id. */
  readonly runId: string;
  /** The workflow's name. */
  readonly workflow: string;
  /** Who the run belongs to, when it has an owner. */
  readonly owner?: string;
  /** Aborted when the run is cancelled or this execution lost its lease. */
  readonly signal: AbortSignal;
  /** Runs `fn` once per run: a completed step's checkpointed output is replayed, never re-run. */
  step<T>(name: string, fn: StepFn<T>, options?: StepOptions<T>): Promise<T>;
  /** A durable timer: the run suspends until `at` (store clock); `runner.wakeDue` continues it. */
  sleepUntil(name: string, at: number | Date): Promise<void>;
  /** `sleepUntil(now + ms)`, `now` read from the store clock once, when first reached. */
  sleep(name: string, ms: number): Promise<void>;
  /** Suspends until `runner.signal(runId, name, data)` delivers data (validated by `schema`). */
  waitForEvent<T = JsonValue>(name: string, schema?: StandardSchemaV1<unknown, T>): Promise<T>;
  /**
   * Runs `agent` as a durable step: its run (id `${runId}:${stepKey}`) is stored in the runner's
   * store, so a re-run continues it (completed tools never repeat) and a completed one is reused.
   */
  runAgent<Deps, O>(
    name: string,
    agent: Agent<Deps, O>,
    prompt: string,
    options?: RunAgentOptions<Deps>,
  ): Promise<CompletedResult<O>>;
  /**
   * Runs a golem `Tool` on `args` (JSON) as a step, with the agent loop's guarantees: a completed
   * call never runs again; one in flight when its process died runs again only if the tool is
   * `idempotent`, else the step suspends for `{ rerun: true }` or `{ result }`; a tool with an
   * `approval` policy suspends for `{ approved }` first. Resolves with the tool's text.
   */
  runTool<Deps>(
    name: string,
    tool: Tool<Deps>,
    args: unknown,
    options?: RunToolOptions<Deps>,
  ): Promise<string>;
}
