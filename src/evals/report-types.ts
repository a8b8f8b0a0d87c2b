import type { JsonValue, Usage } from '../core/index';
import type { EvaluatorResult, EvalToolCall } from './evaluator';

/** Why a case run failed before its evaluators could run. */
export interface CaseRunError {
  /** The error's name (`RunError`, `EvalError`, `TypeError`…). */
  readonly name: string;
  /** Its message (secrets scrubbed). */
  readonly message: string;
  /** A `RunError`'s stage, an `EvalError`'s kind, or `paused` (the run waits for approvals). */
  readonly stage?: string;
}

/** One run of one case (a case repeated N times has N). JSON-safe. */
export interface CaseRun {
  /** Which repetition, from 0. */
  readonly repeat: number;
  /** Passed: no error and every evaluator passed. */
  readonly pass: boolean;
  /** The task's output as JSON (absent when the task failed). */
  readonly output?: JsonValue;
  /** Set when the task failed (after its retries); evaluators did not run. */
  readonly error?: CaseRunError;
  /** Every evaluator's verdict, in order. */
  readonly scores: readonly EvaluatorResult[];
  /** The transcript in the durable message JSON (`encodeMessages`). */
  readonly messages: readonly JsonValue[];
  readonly toolCalls: readonly EvalToolCall[];
  readonly usage: Usage;
  /** Priced cost of the task (absent: not priced). */
  readonly cost?: number;
  readonly requests: number;
  readonly turns: number;
  /** Wall time of the task in ms (replayed runs report the recorded time). */
  readonly durationMs: number;
  /** Attempts the task took (1 without retries). */
  readonly attempts: number;
  /** Whether the task ran on recorded traffic (a cassette) rather than live. */
  readonly replayed: boolean;
}

/** One case of a report: its facts and its runs. */
export interface CaseReport {
  readonly name: string;
  readonly input: JsonValue;
  readonly expected?: JsonValue;
  readonly metadata?: Readonly<Record<string, JsonValue>>;
  readonly runs: readonly CaseRun[];
  /** Share of runs that passed, 0–1. */
  readonly passRate: number;
  /** Mean of every evaluator score over every run, 0–1 (0 for a run that failed). */
  readonly meanScore: number;
  /** Standard deviation of the per-run mean score across repeats (0 with one run). */
  readonly scoreStdDev: number;
}

/** One evaluator over the whole experiment. */
export interface EvaluatorSummary {
  readonly name: string;
  /** Runs it judged. */
  readonly count: number;
  readonly passRate: number;
  readonly meanScore: number;
  /** Runs where it threw. */
  readonly errors: number;
}

/** Latency percentiles in ms, over every run. */
export interface LatencySummary {
  readonly p50: number;
  readonly p90: number;
  readonly p99: number;
  readonly mean: number;
  readonly max: number;
}

/** The aggregates of a report. */
export interface ReportSummary {
  readonly cases: number;
  readonly runs: number;
  readonly passed: number;
  readonly failed: number;
  /** Runs whose task failed (counted in `failed` too). */
  readonly errored: number;
  /** `passed / runs`, 0–1. */
  readonly passRate: number;
  /** Mean of the cases' mean scores, 0–1. */
  readonly meanScore: number;
  readonly evaluators: readonly EvaluatorSummary[];
  /** Tokens the tasks used. */
  readonly usage: Usage;
  /** Priced cost of the tasks (absent: nothing priced). */
  readonly cost?: number;
  /** Tokens and cost the evaluators (LLM judges) used. */
  readonly evaluatorUsage: Usage;
  readonly evaluatorCost?: number;
  readonly latency: LatencySummary;
  /** Runs replayed from cassettes. */
  readonly replayed: number;
}

/** What an experiment produced: JSON-safe, written and read by `writeReport`/`readReport`. */
export interface ExperimentReport {
  /** Format version; always `1`. */
  readonly golemEvalReport: 1;
  /** The experiment's name. */
  readonly name: string;
  /** The dataset's name. */
  readonly dataset: string;
  /** ISO time the experiment started. */
  readonly startedAt: string;
  /** Wall time of the whole experiment in ms. */
  readonly durationMs: number;
  /** Repetitions per case. */
  readonly repeat: number;
  /** Free-form facts (model, commit, prompt version) given to the experiment. */
  readonly metadata: Readonly<Record<string, JsonValue>>;
  readonly cases: readonly CaseReport[];
  readonly summary: ReportSummary;
}

/** How one case moved between a baseline and a candidate report. */
export type CaseChange = 'regressed' | 'improved' | 'unchanged' | 'added' | 'removed';

/** One evaluator's move on one case. */
export interface EvaluatorDiff {
  readonly name: string;
  /** Pass rate and mean score in the baseline (absent: not run there). */
  readonly baseline?: { readonly passRate: number; readonly meanScore: number };
  readonly candidate?: { readonly passRate: number; readonly meanScore: number };
}

/** One case of a comparison. */
export interface CaseComparison {
  readonly name: string;
  readonly change: CaseChange;
  readonly baseline?: { readonly passRate: number; readonly meanScore: number };
  readonly candidate?: { readonly passRate: number; readonly meanScore: number };
  /** The evaluators whose pass rate or score moved. */
  readonly evaluators: readonly EvaluatorDiff[];
  /** Whether the output changed (first run of each). */
  readonly outputChanged: boolean;
  /** A pairwise judge's verdict, when one compared the outputs. */
  readonly preferred?: 'baseline' | 'candidate' | 'tie';
  readonly reason?: string;
}

/** Baseline vs candidate: per-case diffs with regressions flagged. */
export interface Comparison {
  readonly golemEvalComparison: 1;
  readonly baseline: string;
  readonly candidate: string;
  readonly cases: readonly CaseComparison[];
  readonly regressions: number;
  readonly improvements: number;
  /** candidate − baseline. */
  readonly delta: {
    readonly passRate: number;
    readonly meanScore: number;
    /** Absent when either side is not priced. */
    readonly cost?: number;
    readonly p50LatencyMs: number;
  };
}

/** What an experiment must reach; `checkThresholds`, `golem eval` and `toPass` read it. */
export interface Thresholds {
  /** Least share of passing runs, 0–1. */
  readonly passRate?: number;
  /** Least mean score, 0–1. */
  readonly meanScore?: number;
  /** Least pass rate per evaluator name, 0–1. */
  readonly evaluators?: Readonly<Record<string, number>>;
  /** Most total task cost. */
  readonly maxCost?: number;
  /** Most p90 latency in ms. */
  readonly maxP90LatencyMs?: number;
  /** Most regressions against a baseline (needs a comparison); default unchecked. */
  readonly maxRegressions?: number;
}

/** Whether a report met its thresholds, and every one it missed. */
export interface ThresholdCheck {
  readonly ok: boolean;
  readonly failures: readonly string[];
}
