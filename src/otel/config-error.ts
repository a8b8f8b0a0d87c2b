import { GolemError, hasKind } from '../core/kit/error-base';

/** `otelInstrumentation` was given an invalid option; the message names it and the fix. */
export class OtelConfigError extends GolemError {
  constructor(message: string) {
    super('OtelConfigError', `golem/otel: ${message}`);
  }

  /** Brand check that works across package copies. */
  static is(value: unknown): value is OtelConfigError {
    return hasKind(value, 'OtelConfigError');
  }
}
