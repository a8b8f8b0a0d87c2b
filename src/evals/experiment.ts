import { throwIfCancelled } from '../core/index';
import { resolveCassettes } from './cassette-options';
import type { Evaluator } from './evaluator';
import { checkDataset, validateExperimentOptions } from './experiment-validate';
import type {
  CaseRunOutcome,
  ExperimentInfo,
  ExperimentInstrumentation,
  ExperimentOptions,
  Task,
} from './experiment-types';
import { runPool } from './pool';
import { progressReporter } from './progress';
import { buildCaseReport, buildSummary } from './report-build';
import type { CaseRun, ExperimentReport } from './report-types';
import { defaultSleep } from './retry-sleep';
import { runCaseRun } from './task-run';

/** Case runs at once when the options do not say. */
const DEFAULT_CONCURRENCY = 4;

/** Instrumentation that only calls through. */
const NO_INSTRUMENTATION: ExperimentInstrumentation = {
  experiment: (_info, fn) => fn(),
  caseRun: (_info, fn) => fn(() => undefined),
};

/**
 * Runs the task on every case of the dataset (`repeat` times each, `concurrency` at once), scores
 * each run with the dataset's, the experiment's and the case's evaluators, and returns the
 * report (cases in dataset order, runs in repeat order). A task that fails does not fail the
 * experiment: its run carries the error. Cassettes (`cassettes`) record each case run's model
 * calls and tool results once and replay them afterwards (see `CassetteMode`). Invalid options
 * throw `ConfigError`; an aborted `signal` rejects with the cancellation once running runs end.
 */
export async function runExperiment<Input, Output, Expected = unknown>(
  options: ExperimentOptions<Input, Output, Expected>,
): Promise<ExperimentReport> {
  validateExperimentOptions(options as ExperimentOptions<unknown, unknown>);
  const cassettes = resolveCassettes(options.cassettes);
  const signal = options.signal ?? new AbortController().signal;
  const repeat = options.repeat ?? 1;
  const dataset = typeof options.dataset === 'function' ? await options.dataset() : options.dataset;
  checkDataset(dataset);
  const instrumentation = options.instrumentation ?? NO_INSTRUMENTATION;
  const jobs = dataset.cases.flatMap((evalCase, index) =>
    Array.from({ length: repeat }, (_, r) => ({ index, evalCase, repeat: r })),
  );
  const info: ExperimentInfo = {
    name: options.name,
    dataset: dataset.name,
    cases: dataset.cases.length,
    repeat,
  };
  const startedAt = new Date().toISOString();
  const started = performance.now();
  const progress = progressReporter(options.progress);
  const counts = { done: 0, passed: 0, failed: 0 };
  const shared = [
    ...(dataset.evaluators as readonly Evaluator[]),
    ...((options.evaluators ?? []) as readonly Evaluator[]),
  ];

  const runJob = async (i: number): Promise<CaseRun> => {
    const job = jobs[i];
    if (job === undefined) throw new RangeError(`no case run ${i}`);
    const { evalCase } = job;
    const run = await instrumentation.caseRun(
      { experiment: options.name, caseName: evalCase.name, repeat: job.repeat },
      async (report) => {
        const made = await runCaseRun({
          evalCase,
          repeat: job.repeat,
          task: options.task as Task<unknown, unknown>,
          evaluators: [...shared, ...((evalCase.evaluators ?? []) as readonly Evaluator[])],
          retries: options.retries ?? 0,
          timeout: options.timeout,
          sleep: options.sleep ?? defaultSleep,
          signal,
          cassettes,
        });
        report(outcomeOf(made));
        return made;
      },
    );
    counts.done += 1;
    if (run.pass) counts.passed += 1;
    else counts.failed += 1;
    progress.update({ ...counts, total: jobs.length, caseName: evalCase.name, repeat: job.repeat });
    return run;
  };

  const runs = await instrumentation.experiment(info, async () => {
    try {
      return await runPool(jobs.length, options.concurrency ?? DEFAULT_CONCURRENCY, runJob, signal);
    } finally {
      progress.finish();
    }
  });
  throwIfCancelled(signal);

  // Runs grouped by case in one pass (jobs are in case order, repeats in order).
  const byCase = dataset.cases.map((): CaseRun[] => []);
  for (const [i, job] of jobs.entries()) {
    const run = runs[i];
    if (run !== undefined) byCase[job.index]?.push(run);
  }
  const cases = dataset.cases.map((evalCase, index) =>
    buildCaseReport(evalCase, byCase[index] ?? []),
  );
  return {
    golemEvalReport: 1,
    name: options.name,
    dataset: dataset.name,
    startedAt,
    durationMs: Math.round(performance.now() - started),
    repeat,
    metadata: { ...(options.metadata ?? {}) },
    cases,
    summary: buildSummary(cases),
  };
}

function outcomeOf(run: CaseRun): CaseRunOutcome {
  const outcome: CaseRunOutcome = {
    pass: run.pass,
    scores: run.scores.map((s) => ({ name: s.name, score: s.score, pass: s.pass })),
    replayed: run.replayed,
    durationMs: run.durationMs,
  };
  return run.error === undefined ? outcome : { ...outcome, error: run.error.message };
}
