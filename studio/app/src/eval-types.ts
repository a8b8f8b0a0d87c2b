/**
 * The parts of golem's eval report and comparison JSON (golem/evals `ExperimentReport`,
 * `Comparison`) the app shows. Structural copies: the app imports types only from the studio's
 * contract, and these files are JSON written by `writeReport` / `compareReports`.
 */

/** One evaluator's verdict on one run. */
export interface EvalScoreJson {
  readonly name: string;
  readonly pass: boolean;
  readonly score: number;
  readonly reason?: string;
  readonly error?: string;
}

/** One run of a case. */
export interface CaseRunJson {
  readonly repeat: number;
  readonly pass: boolean;
  readonly output?: unknown;
  readonly error?: { readonly name: string; readonly message: string; readonly stage?: string };
  readonly scores: readonly EvalScoreJson[];
  readonly durationMs: number;
  readonly turns: number;
  readonly cost?: number;
}

/** One case of a report. */
export interface CaseReportJson {
  readonly name: string;
  readonly input: unknown;
  readonly expected?: unknown;
  readonly runs: readonly CaseRunJson[];
  readonly passRate: number;
  readonly meanScore: number;
  readonly scoreStdDev: number;
}

/** A report (`GET /api/evals/:file`). */
export interface ExperimentReportJson {
  readonly name: string;
  readonly dataset: string;
  readonly startedAt: string;
  readonly durationMs: number;
  readonly repeat: number;
  readonly metadata: Readonly<Record<string, unknown>>;
  readonly cases: readonly CaseReportJson[];
  readonly summary: {
    readonly cases: number;
    readonly runs: number;
    readonly passed: number;
    readonly failed: number;
    readonly errored: number;
    readonly passRate: number;
    readonly meanScore: number;
    readonly evaluators: readonly {
      readonly name: string;
      readonly count: number;
      readonly passRate: number;
      readonly meanScore: number;
      readonly errors: number;
    }[];
    readonly usage: { readonly inputTokens: number; readonly outputTokens: number };
    readonly cost?: number;
    readonly latency: { readonly p50: number; readonly p90: number; readonly max: number };
  };
}

/** One side of a case in a comparison. */
export interface CaseSideJson {
  readonly passRate: number;
  readonly meanScore: number;
}

/** A comparison (`GET /api/evals/compare`). */
export interface ComparisonJson {
  readonly baseline: string;
  readonly candidate: string;
  readonly cases: readonly {
    readonly name: string;
    readonly change: 'regressed' | 'improved' | 'unchanged' | 'added' | 'removed';
    readonly baseline?: CaseSideJson;
    readonly candidate?: CaseSideJson;
    readonly outputChanged: boolean;
  }[];
  readonly regressions: number;
  readonly improvements: number;
  readonly delta: {
    readonly passRate: number;
    readonly meanScore: number;
    readonly cost?: number;
    readonly p50LatencyMs: number;
  };
}
