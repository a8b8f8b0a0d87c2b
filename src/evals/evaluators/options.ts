import { ConfigError } from '../../core/index';
import { preview } from './preview';

/** The option every built-in evaluator takes: a name for reports instead of its default. */
export interface NamedOptions {
  /** Names the evaluator in reports; default the built-in's own (`equals`, `maxTurns`…). */
  readonly name?: string;
}

/** A `ConfigError` of component `evals` for a wrong evaluator argument. */
export function evaluatorConfigError(message: string, option?: string): ConfigError {
  return new ConfigError(message, {
    component: 'evals',
    ...(option === undefined ? {} : { option }),
  });
}

/** `name` when given (checked: a non-empty string), else `fallback`. */
export function evaluatorName(name: unknown, fallback: string): string {
  if (name === undefined) return fallback;
  if (typeof name !== 'string' || name.trim() === '') {
    throw evaluatorConfigError(
      `${fallback}: name must be a non-empty string, got ${preview(name)}`,
      'name',
    );
  }
  return name;
}

/** `threshold` checked to be a number in 0–1 (or absent). */
export function checkThreshold(owner: string, threshold: unknown): number | undefined {
  if (threshold === undefined) return undefined;
  if (typeof threshold !== 'number' || !(threshold >= 0 && threshold <= 1)) {
    throw evaluatorConfigError(
      `${owner}: threshold must be a number between 0 and 1, got ${preview(threshold)}`,
      'threshold',
    );
  }
  return threshold;
}

/** `limit` checked to be a finite number ≥ 0. */
export function checkLimit(owner: string, limit: unknown, option: string): number {
  if (typeof limit !== 'number' || !Number.isFinite(limit) || limit < 0) {
    throw evaluatorConfigError(
      `${owner}: ${option} must be a finite number >= 0, got ${preview(limit)}`,
      option,
    );
  }
  return limit;
}
