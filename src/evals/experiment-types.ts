import type {
  JsonValue,
  Message,
  Middleware,
  Result,
  RunObserver,
  RunOptions,
  Usage,
} from '../core/index';
import type { Dataset } from './case';
import type { Evaluator } from './evaluator';
import type { ExperimentReport, Thresholds } from './report-types';

/**
 * What an `Agent` task takes as a case input: a prompt, or a prompt with the run's `deps` and
 * earlier `history`.
 */
export type AgentCaseInput<Deps = unknown> =
  string | { readonly prompt: string; readonly deps?: Deps; readonly history?: readonly Message[] };

/** The options a task passes to its agent runs so the experiment sees and records them. */
export interface EvalRunOptions {
  readonly signal: AbortSignal;
  /** Collects the run's events for event-based evaluators. */
  readonly observer: RunObserver;
  /** The case's cassette (recording or replaying model calls and tool results); empty when off. */
  readonly middleware: readonly Middleware[];
}

/** What a function task receives beside the case input. */
export interface TaskContext {
  /** The case's name. */
  readonly caseName: string;
  /** Which repetition, from 0. */
  readonly repeat: number;
  /** Which attempt, from 1 (a retried task runs again with a fresh cassette position). */
  readonly attempt: number;
  /** Cancels the task (the experiment's signal, or the case timeout). */
  readonly signal: AbortSignal;
  /** Spread into `agent.run(prompt, { ...ctx.runOptions, deps })` to observe and record the run. */
  readonly runOptions: EvalRunOptions;
}

/**
 * What a function task may return: a plain output, or a golem run result (its `output`,
 * `messages`, `usage`, `cost`, `requests` become the case's evidence).
 */
export interface TaskEvidence<Output> {
  readonly output: Output;
  readonly messages?: readonly Message[];
  readonly usage?: Usage;
  readonly requests?: number;
  /** A run result's cost (`{ total }`) or a number. */
  readonly cost?: number | { readonly total: number };
}

/**
 * An agent as an experiment's task: any golem `Agent` whose output is `Output`, whatever its
 * `Deps` (each case gives its own `deps`). Only `run` is used.
 */
export interface AgentTask<Output> {
  run(prompt: string, options: RunOptions<unknown>): Promise<Result<Output>>;
}

/** A task: an agent (run on each case's prompt) or any async function of the case input. */
export type Task<Input, Output> =
  | AgentTask<Output>
  | ((
      input: Input,
      ctx: TaskContext,
    ) => Output | TaskEvidence<Output> | Promise<Output | TaskEvidence<Output>>);

/**
 * When cassettes record and replay:
 * - `auto` (default): replay a case whose cassette exists, record one that has none;
 * - `replay`: replay only; a missing cassette or a changed request fails the case (CI);
 * - `record`: always call the provider and overwrite the cassettes;
 * - `off`: no cassettes.
 */
export type CassetteMode = 'auto' | 'replay' | 'record' | 'off';

/** Where and how an experiment keeps each case's recorded traffic. */
export interface CassetteOptions {
  /** The folder of cassette files (`<case>.json`, and `<case>.r<k>.json` for repeat k ≥ 1). */
  readonly dir: string;
  /** Default `auto`; the `GOLEM_EVAL_CASSETTES` environment variable overrides it. */
  readonly mode?: CassetteMode;
  /**
   * `strict` (default): a replayed model call must send the recorded request (its fingerprint);
   * `order`: replay by position only (for tasks whose requests vary harmlessly, e.g. a date).
   */
  readonly match?: 'strict' | 'order';
}

/** Progress of an experiment, after each finished case run. */
export interface ExperimentProgress {
  readonly done: number;
  readonly total: number;
  readonly passed: number;
  readonly failed: number;
  /** The case run that just finished. */
  readonly caseName: string;
  readonly repeat: number;
}

/** Facts about an experiment for instrumentation. */
export interface ExperimentInfo {
  readonly name: string;
  readonly dataset: string;
  readonly cases: number;
  readonly repeat: number;
}

/** Facts about one case run for instrumentation, and its outcome once known. */
export interface CaseRunInfo {
  readonly experiment: string;
  readonly caseName: string;
  readonly repeat: number;
}

/** A case run's outcome, handed to instrumentation. */
export interface CaseRunOutcome {
  readonly pass: boolean;
  readonly scores: readonly {
    readonly name: string;
    readonly score: number;
    readonly pass: boolean;
  }[];
  readonly error?: string;
  readonly replayed: boolean;
  readonly durationMs: number;
}

/**
 * Wraps an experiment and each case run (`evalTracing()` from `golem/otel` makes spans, so the
 * agent's own spans nest under the case's). Each hook must call `fn` once and return its result.
 */
export interface ExperimentInstrumentation {
  experiment<T>(info: ExperimentInfo, fn: () => Promise<T>): Promise<T>;
  caseRun<T>(
    info: CaseRunInfo,
    fn: (report: (outcome: CaseRunOutcome) => void) => Promise<T>,
  ): Promise<T>;
}

/** What `runExperiment` takes. */
export interface ExperimentOptions<Input, Output, Expected = unknown> {
  /** Names the experiment in reports (e.g. `baseline`, `candidate`, a model name). */
  readonly name: string;
  /**
   * The cases, or a function that loads them when the experiment runs
   * (`() => loadDataset('cases.yaml')`: an experiment file then needs no top-level `await`).
   */
  readonly dataset:
    Dataset<Input, Expected> | (() => Dataset<Input, Expected> | Promise<Dataset<Input, Expected>>);
  readonly task: Task<Input, Output>;
  /** Evaluators for every case, after the dataset's and before each case's own. */
  readonly evaluators?: readonly Evaluator<Input, Output, Expected>[];
  /** Case runs at once; default 4. */
  readonly concurrency?: number;
  /** Extra attempts for a task that throws a retryable error (429, 5xx, timeouts); default 0. */
  readonly retries?: number;
  /** Runs per case, for variance; default 1. */
  readonly repeat?: number;
  /** Deadline per case run in ms; default none. */
  readonly timeout?: number;
  /** Record each case's traffic once and replay it afterwards (a folder, or options). */
  readonly cassettes?: string | CassetteOptions;
  /** `true`: a progress bar on stderr when it is a terminal; a function: called per case run. */
  readonly progress?: boolean | ((progress: ExperimentProgress) => void);
  readonly instrumentation?: ExperimentInstrumentation;
  /** Facts kept in the report (model, commit, prompt version). */
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  readonly signal?: AbortSignal;
  /** Waits between retries (ms); default 250 ms doubling. Tests pass a fake. */
  readonly sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
}

/** An experiment a file exports for `golem eval`: its options, thresholds and outputs. */
export interface Experiment<Input = unknown, Output = unknown, Expected = unknown> {
  readonly options: ExperimentOptions<Input, Output, Expected>;
  /** What the report must reach; `golem eval` exits 1 below it. */
  readonly thresholds?: Thresholds;
  /** Runs the experiment (same as `runExperiment(options)`). */
  run(overrides?: Partial<ExperimentOptions<Input, Output, Expected>>): Promise<ExperimentReport>;
}
