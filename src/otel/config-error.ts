import { ConfigError } from '../core/kit/config-error';

/**
 * `otelInstrumentation` was given an invalid option: a {@link ConfigError} of component `otel`;
 * the message names the option and the fix.
 */
export function otelConfigError(message: string): ConfigError {
  return new ConfigError(`golem/otel: ${message}`, { component: 'otel' });
}
