/**
 * How the CLI reports a failed run or tool: the stage a run failed at, the cause's text, and no
 * secret of the environment (provider keys and the like) in what it prints.
 */
import { describeError, RunError, RunInputError } from '../../src/core/index';
import { redactSecrets } from '../../src/core/kit/redaction';
import type { ResolveEnvironment } from '../../src/providers/resolve/index';
import { secretValues } from '../../src/providers/resolve/index';

/**
 * A failure in one line: `the run failed at the <stage> stage: <cause>` for a run, `the run could
 * not start: <why>` for its input (instructions, deps), else the error's text — with the values of
 * the secret-looking variables of `env` (`*KEY*`, `*TOKEN*`, …) redacted.
 */
export function failureText(error: unknown, env: ResolveEnvironment): string {
  const text = RunError.is(error)
    ? `the run failed at the ${error.stage} stage: ${describeError(error.cause)}`
    : RunInputError.is(error)
      ? `the run could not start: ${describeError(error)}`
      : describeError(error);
  return redactSecrets(text, secretValues(env));
}
