import { ConfigError, type ConfigComponent, type ConfigErrorReason } from '../../src/core/index';

/**
 * An asymmetric matcher for a `ConfigError` of `component` (and `reason`, when given):
 * `expect(fn).toThrow(configErrorOf('model'))`, `expect(error).toEqual(configErrorOf('mcp'))`.
 */
export function configErrorOf(component: ConfigComponent, reason?: ConfigErrorReason): Error {
  const matcher: unknown = expect.objectContaining({
    name: 'ConfigError',
    component,
    ...(reason !== undefined && { reason }),
  });
  return matcher as Error;
}

/** A type guard for a `ConfigError` of `component` (and `reason`), e.g. for `caughtAs`. */
export function configErrorGuard(
  component: ConfigComponent,
  reason?: ConfigErrorReason,
): (value: unknown) => value is ConfigError {
  return (value: unknown): value is ConfigError => ConfigError.is(value, component, reason);
}
