import { GolemError, brandGuard } from '../../core/kit/error-base';
import { ConfigError } from '../../core/kit/config-error';
import { ModelRetry } from '../../core/errors/errors';

/** A {@link shell} option is invalid: a {@link ConfigError} of component `shell`; `option` names it. */
export function shellConfigError(option: string, message: string): ConfigError {
  return new ConfigError(`shell: ${message}`, { component: 'shell', option });
}

const DENIED_BRAND = Symbol.for('golem.tools.shell.CommandDeniedError');

/**
 * The command was refused before anything ran: chaining to a command that is not allowed,
 * substitution, redirection, an assignment, a parse problem or a complexity cap. It is a
 * {@link ModelRetry} (`ModelRetry.is` is true), so the model is told why and may send another
 * command; {@link CommandDeniedError.is} tells it apart.
 */
export class CommandDeniedError extends ModelRetry {
  /** The command as the model sent it (a command line, or argv joined with spaces). */
  readonly command: string;

  constructor(command: string, reason: string) {
    super(`command denied: ${reason}`);
    this.name = 'CommandDeniedError';
    this.command = command;
    Object.defineProperty(this, DENIED_BRAND, { value: true, enumerable: false });
  }

  /** Brand check that works across package copies. */
  static override is(value: unknown): value is CommandDeniedError {
    return (
      ModelRetry.is(value) && (value as unknown as Record<symbol, unknown>)[DENIED_BRAND] === true
    );
  }
}

/**
 * The command ran past the tool's timeout; its whole process group was killed. `cause` is a
 * `DeadlineExceededError`, so `isDeadlineExceeded` holds; never a correctable rejection.
 */
export class CommandTimeoutError extends GolemError {
  readonly command: string;
  /** The timeout that passed, in ms. */
  readonly timeout: number;
  /** What the command printed before it was killed (capped like a result). */
  readonly output: string;

  constructor(command: string, timeout: number, output: string, cause: unknown) {
    super('CommandTimeoutError', `shell: command timed out after ${timeout} ms and was killed`, {
      cause,
    });
    this.command = command;
    this.timeout = timeout;
    this.output = output;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<CommandTimeoutError>('CommandTimeoutError');
}

/** The program could not be started for a reason other than a missing command (permissions, limits). */
export class CommandStartError extends GolemError {
  readonly command: string;

  constructor(command: string, cause: unknown) {
    const detail = cause instanceof Error ? cause.message : String(cause);
    super('CommandStartError', `shell: cannot start the command: ${detail}`, { cause });
    this.command = command;
  }

  /** Brand check that works across package copies. */
  static readonly is = brandGuard<CommandStartError>('CommandStartError');
}
