import { ConfigError } from '../core/index';
import { isRecord } from '../core/kit/guards';
import { timeoutProblem } from '../core/kit/timeouts';
import { showValue } from '../core/kit/safe-inspect';
import type { Dataset } from './case';
import type { ExperimentOptions } from './experiment-types';

function describe(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : showValue(value);
}

function invalid(option: string, problem: string): ConfigError {
  return new ConfigError(`experiment option ${option} ${problem}`, { component: 'evals', option });
}

function checkCount(value: unknown, option: string, min: number): void {
  if (value === undefined) return;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min)
    throw invalid(option, `must be an integer >= ${min}, got ${describe(value)}`);
}

/**
 * Checks a dataset given to an experiment (or loaded by its `dataset` function); throws
 * `ConfigError` (component `evals`).
 */
export function checkDataset(dataset: unknown): asserts dataset is Dataset {
  if (!isRecord(dataset) || typeof dataset.name !== 'string' || !Array.isArray(dataset.cases))
    throw invalid(
      'dataset',
      'must be a dataset: defineDataset({ name, cases }) or loadDataset(file), or a function returning one',
    );
  if (!Array.isArray(dataset.evaluators))
    throw invalid('dataset', 'has no evaluators list: build it with defineDataset(...)');
}

/**
 * Checks `runExperiment`/`defineExperiment` options before anything runs; throws
 * `ConfigError` (component `evals`) naming the option and the fix.
 */
export function validateExperimentOptions(options: ExperimentOptions<unknown, unknown>): void {
  if (!isRecord(options)) throw invalid('(options)', 'must be an object { name, dataset, task }');
  const { name, dataset, task } = options;
  if (typeof name !== 'string' || name.trim() === '')
    throw invalid('name', 'must be a non-empty string (e.g. "baseline" or a model name)');
  if (typeof dataset !== 'function') checkDataset(dataset);
  const isAgent = isRecord(task) && typeof (task as { run?: unknown }).run === 'function';
  if (typeof task !== 'function' && !isAgent)
    throw invalid('task', 'must be an Agent or a function (input, ctx) => output');
  if (options.evaluators !== undefined) {
    if (!Array.isArray(options.evaluators))
      throw invalid('evaluators', 'must be an array of evaluators');
    for (const [i, e] of options.evaluators.entries()) {
      if (!isRecord(e) || typeof e.name !== 'string' || typeof e.evaluate !== 'function')
        throw invalid(`evaluators[${i}]`, 'must be an evaluator { name, evaluate(ctx) }');
    }
  }
  checkCount(options.concurrency, 'concurrency', 1);
  checkCount(options.retries, 'retries', 0);
  checkCount(options.repeat, 'repeat', 1);
  if (options.timeout !== undefined) {
    const problem = timeoutProblem(options.timeout);
    if (problem !== undefined || options.timeout === 0)
      throw invalid('timeout', problem ?? 'must be more than 0 ms (leave it out for none)');
  }
  checkCassettes(options.cassettes);
  const { progress, sleep, signal, instrumentation, metadata } = options;
  if (progress !== undefined && typeof progress !== 'boolean' && typeof progress !== 'function')
    throw invalid('progress', 'must be true, false or a function (progress) => void');
  if (sleep !== undefined && typeof sleep !== 'function')
    throw invalid('sleep', 'must be a function (ms, signal) => Promise<void>');
  if (signal !== undefined && !(signal instanceof AbortSignal))
    throw invalid('signal', 'must be an AbortSignal');
  if (
    instrumentation !== undefined &&
    (!isRecord(instrumentation) ||
      typeof instrumentation.experiment !== 'function' ||
      typeof instrumentation.caseRun !== 'function')
  )
    throw invalid('instrumentation', 'must have experiment(info, fn) and caseRun(info, fn)');
  if (metadata !== undefined && !isRecord(metadata))
    throw invalid('metadata', 'must be an object of JSON values');
}

function checkCassettes(cassettes: unknown): void {
  if (cassettes === undefined || typeof cassettes === 'string') {
    if (cassettes === '') throw invalid('cassettes', 'must name a folder');
    return;
  }
  if (!isRecord(cassettes) || typeof cassettes['dir'] !== 'string' || cassettes['dir'] === '')
    throw invalid('cassettes', 'must be a folder or { dir, mode?, match? }');
  const mode = cassettes['mode'];
  if (mode !== undefined && !['auto', 'replay', 'record', 'off'].includes(mode as string))
    throw invalid('cassettes.mode', `must be auto, replay, record or off, got ${describe(mode)}`);
  const match = cassettes['match'];
  if (match !== undefined && match !== 'strict' && match !== 'order')
    throw invalid('cassettes.match', `must be strict or order, got ${describe(match)}`);
}
