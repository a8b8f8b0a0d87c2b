import { ConfigError } from '../core/index';
import { isRecord } from '../core/kit/guards';
import { runExperiment } from './experiment';
import { validateExperimentOptions } from './experiment-validate';
import type { Experiment, ExperimentOptions } from './experiment-types';
import type { Thresholds } from './report-types';

/**
 * An experiment for `golem eval` to find in a file (export it, by default or by name): its
 * options, checked now (`ConfigError`), its `thresholds`, and `run(overrides?)` — the same as
 * `runExperiment({ ...options, ...overrides })` (the CLI overrides `concurrency`, `repeat` and
 * `cassettes` from its flags).
 */
export function defineExperiment<Input, Output, Expected = unknown>(
  options: ExperimentOptions<Input, Output, Expected> & { readonly thresholds?: Thresholds },
): Experiment<Input, Output, Expected> {
  const { thresholds, ...rest } = options;
  validateExperimentOptions(rest as ExperimentOptions<unknown, unknown>);
  const problem = thresholdsProblem(thresholds);
  if (problem !== undefined)
    throw new ConfigError(`experiment option thresholds${problem}`, {
      component: 'evals',
      option: 'thresholds',
    });
  const frozen = Object.freeze({ ...rest });
  const experiment: Experiment<Input, Output, Expected> = {
    options: frozen,
    run: (overrides = {}) => runExperiment({ ...frozen, ...overrides }),
  };
  return Object.freeze(thresholds === undefined ? experiment : { ...experiment, thresholds });
}

const RATES = ['passRate', 'meanScore'] as const;
const LIMITS = ['maxCost', 'maxP90LatencyMs', 'maxRegressions'] as const;

function thresholdsProblem(thresholds: unknown): string | undefined {
  if (thresholds === undefined) return undefined;
  if (!isRecord(thresholds)) return ' must be an object such as { passRate: 0.9 }';
  for (const key of RATES) {
    const value = thresholds[key];
    if (value !== undefined && !isRate(value)) return `.${key} must be a number 0–1`;
  }
  for (const key of LIMITS) {
    const value = thresholds[key];
    if (value !== undefined && (typeof value !== 'number' || !(value >= 0)))
      return `.${key} must be a number >= 0`;
  }
  const evaluators = thresholds['evaluators'];
  if (evaluators === undefined) return undefined;
  if (!isRecord(evaluators)) return '.evaluators must map evaluator names to pass rates 0–1';
  for (const [name, value] of Object.entries(evaluators)) {
    if (!isRate(value)) return `.evaluators.${name} must be a number 0–1`;
  }
  return undefined;
}

function isRate(value: unknown): boolean {
  return typeof value === 'number' && value >= 0 && value <= 1;
}
