import { Logger } from '@nestjs/common';
import { GolemError, RunError, RunInputError, StoreError } from '../src/core/index';

/** One Nest logger for the run failures `golem/nestjs` answers clients with. */
const logger = new Logger('Golem');

/** A class or kind name safe to show: an identifier, nothing a message could hide in. */
const IDENTIFIER = /^[A-Za-z_$][\w$]{0,63}$/;

/**
 * The kind of an error for a client: a Golem error's `kind`, else its class name — never its
 * message. `Error` for anything else (or a name that is not an identifier). Never throws.
 */
export function clientErrorKind(error: unknown): string {
  try {
    const name: unknown = GolemError.isGolemError(error)
      ? error.kind
      : error instanceof Error
        ? error.name
        : undefined;
    return typeof name === 'string' && IDENTIFIER.test(name) ? name : 'Error';
  } catch {
    return 'Error'; // a hostile getter
  }
}

/**
 * Whether a Golem error's own message may go to the client: it was written by Golem about the
 * client's input or the run it named (an invalid prompt, an unknown or busy run id), and wraps
 * no thrown text of the application (a tool, a model, a model factory, an instructions function,
 * a database driver).
 */
function messageIsForClients(error: unknown): boolean {
  if (RunInputError.is(error)) return error.cause === undefined;
  if (StoreError.is(error))
    return (
      error.reason === 'not-found' ||
      error.reason === 'conflict' ||
      error.reason === 'invalid-state'
    );
  return false;
}

/**
 * The text a client gets for a failed run (or a run that could not start): for a `RunError` its
 * stage and its cause's kind — `The run failed at the "tool" stage (ToolError).` — never the
 * message of what the tool, the model or a model factory threw, which can carry connection
 * strings, keys or paths. Golem's own messages about the request (invalid input, an unknown run
 * id) are kept; anything else is `The run could not start (<kind>).`
 */
export function clientErrorText(error: unknown): string {
  if (RunError.is(error))
    return `The run failed at the "${error.stage}" stage (${clientErrorKind(error.cause)}).`;
  if (messageIsForClients(error)) return (error as Error).message;
  return `The run could not start (${clientErrorKind(error)}).`;
}

/**
 * Logs a run failure whose details the client does not get (see {@link clientErrorText}) with
 * Nest's `Logger` (context `Golem`): the whole message, the stored run's id and the stack.
 */
export function logRunFailure(error: unknown): void {
  if (messageIsForClients(error)) return;
  try {
    const runId = RunError.is(error) ? error.runId : undefined;
    const head = runId === undefined ? 'a run failed' : `run ${JSON.stringify(runId)} failed`;
    const detail = error instanceof Error ? error.message : String(error);
    logger.error(`${head}: ${detail}`, error instanceof Error ? error.stack : undefined);
  } catch {
    logger.error('a run failed (its error could not be described)');
  }
}
