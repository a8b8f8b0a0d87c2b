import { RunError, describeError, findError } from '../core/index';
import { scrubSecrets } from '../core/kit/scrub-secrets';
import { EvalError } from './eval-error';
import type { CaseRunError } from './report-types';

/**
 * How a failed task reads in a report: an `EvalError` anywhere in the chain (a cassette that is
 * missing, mismatched or corrupt) by its kind, else a `RunError` by its stage, else the error's
 * name and message; a paused run has stage `paused`. Messages pass through secret scrubbing.
 */
export function caseRunError(error: unknown): CaseRunError {
  if (error instanceof PausedRunError) {
    return { name: error.name, message: scrub(error.message), stage: 'paused' };
  }
  const evalError = findError(error, EvalError.is);
  if (evalError !== undefined) {
    return { name: 'EvalError', message: scrub(evalError.message), stage: evalError.kind };
  }
  if (RunError.is(error)) {
    return { name: 'RunError', message: scrub(error.message), stage: error.stage };
  }
  const name = error instanceof Error && error.name !== '' ? error.name : 'Error';
  return { name, message: scrub(describeError(error)) };
}

function scrub(text: string): string {
  return scrubSecrets(text, []);
}

/** A task's run paused on deferred tool calls: an eval run must finish. */
export class PausedRunError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PausedRunError';
  }
}
