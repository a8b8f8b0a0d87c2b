import { showValue } from '../core/kit/error-base';
import { MAX_TIMEOUT_MS, timeoutProblem } from '../core/kit/timeouts';
import { mcpConfigError } from './errors';

/** Throws the `mcp` `ConfigError` for `option`. */
export function fail(option: string, message: string): never {
  throw mcpConfigError(option, message);
}

/** A timeout option: finite ms ≥ 0; 0 means none (the largest timer Node honours). */
export function resolveTimeout(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  const problem = timeoutProblem(value);
  if (problem !== undefined) fail(option, `${problem}, got ${showValue(value)}`);
  return value === 0 ? MAX_TIMEOUT_MS : (value as number);
}

/** A byte cap: a non-negative integer; 0 means the default. */
export function resolveBytes(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    fail(
      option,
      `must be a non-negative integer number of bytes (0 = default), got ${showValue(value)}`,
    );
  }
  return value === 0 ? fallback : value;
}

/** A positive integer count (`maxRequests`, `maxTokens`), or `fallback` when absent. */
export function resolveCount(option: string, value: unknown, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    fail(option, `must be a positive integer, got ${showValue(value)}`);
  }
  return value;
}

/** An optional callback. */
export function optionalFunction(option: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') fail(option, 'must be a function');
}
