import { Catch, HttpException, HttpStatus, type ArgumentsHost } from '@nestjs/common';
import { BaseExceptionFilter } from '@nestjs/core';
import { RunError, RunInputError, StoreError } from '../src/core/index';
import { clientErrorText, logRunFailure } from './client-errors';

/** The JSON body `GolemExceptionFilter` answers a failed run with. */
export interface RunErrorBody {
  readonly statusCode: number;
  readonly error: string;
  /**
   * For a failed run its stage and its cause's kind (`The run failed at the "tool" stage
   * (ToolError).`), never what a tool, a model or a model factory threw; for invalid input, what
   * is wrong with it.
   */
  readonly message: string;
  /** The stage the run failed at (`model`, `decode`, `tool`, `loop`, `usage`). */
  readonly stage?: string;
}

/**
 * The HTTP answer for a Golem run failure, or `undefined` for anything else: a `RunError` is a
 * 502 Bad Gateway carrying the stage; a `RunInputError` (an invalid prompt, history or deps
 * given to the run) a 400; a `StoreError` `not-found` (an unknown run id, or a run of another
 * owner or agent) a 404, `conflict` or `invalid-state` (a busy or finished run) a 409. The body never carries the text a tool, a model or a model factory
 * threw (it can hold connection strings, keys, paths): that stays in the error, the `cause` of
 * the returned exception, for the logs.
 */
export function runErrorResponse(exception: unknown): HttpException | undefined {
  if (RunError.is(exception)) {
    const body: RunErrorBody = {
      statusCode: HttpStatus.BAD_GATEWAY,
      error: 'Bad Gateway',
      message: clientErrorText(exception),
      stage: exception.stage,
    };
    return new HttpException(body, HttpStatus.BAD_GATEWAY, { cause: exception });
  }
  if (StoreError.isReason(exception, 'not-found')) {
    // A run of another owner or agent is reported exactly as one that does not exist.
    const body: RunErrorBody = {
      statusCode: HttpStatus.NOT_FOUND,
      error: 'Not Found',
      message: clientErrorText(exception),
    };
    return new HttpException(body, HttpStatus.NOT_FOUND, { cause: exception });
  }
  if (
    StoreError.isReason(exception, 'conflict') ||
    StoreError.isReason(exception, 'invalid-state')
  ) {
    const body: RunErrorBody = {
      statusCode: HttpStatus.CONFLICT,
      error: 'Conflict',
      message: clientErrorText(exception),
    };
    return new HttpException(body, HttpStatus.CONFLICT, { cause: exception });
  }
  if (RunInputError.is(exception)) {
    const body: RunErrorBody = {
      statusCode: HttpStatus.BAD_REQUEST,
      error: 'Bad Request',
      message: clientErrorText(exception),
    };
    return new HttpException(body, HttpStatus.BAD_REQUEST, { cause: exception });
  }
  return undefined;
}

/**
 * An exception filter answering failed runs over HTTP (see {@link runErrorResponse}): a
 * controller can simply `await agent.run(…)`. The client gets the stage; the whole error goes to
 * Nest's `Logger` (context `Golem`). Everything else goes to Nest's default handling.
 * Register it globally with `{ provide: APP_FILTER, useClass: GolemExceptionFilter }` or per
 * controller with `@UseFilters(GolemExceptionFilter)`.
 */
@Catch()
export class GolemExceptionFilter extends BaseExceptionFilter {
  /** Answers a run failure, or defers to Nest's default handling. */
  override catch(exception: unknown, host: ArgumentsHost): void {
    const answer = host.getType() === 'http' ? runErrorResponse(exception) : undefined;
    if (answer !== undefined) logRunFailure(exception);
    super.catch(answer ?? exception, host);
  }
}
