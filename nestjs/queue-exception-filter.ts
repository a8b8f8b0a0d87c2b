import { Catch, HttpException, HttpStatus, type ArgumentsHost } from '@nestjs/common';
import type { QueueErrorReason } from '../src/queue/index';
import { GolemError } from '../src/core/index';
import { GolemExceptionFilter } from './exception-filter';

/** The HTTP status of each `QueueError` reason a request can cause; others are not answered here. */
const STATUS: Partial<Record<QueueErrorReason, HttpStatus>> = {
  'not-found': HttpStatus.NOT_FOUND,
  'invalid-input': HttpStatus.BAD_REQUEST,
  'invalid-deps': HttpStatus.BAD_REQUEST,
  'too-large': HttpStatus.PAYLOAD_TOO_LARGE,
  'invalid-decision': HttpStatus.BAD_REQUEST,
  'deadline-exceeded': HttpStatus.BAD_REQUEST,
  conflict: HttpStatus.CONFLICT,
  'invalid-state': HttpStatus.CONFLICT,
};

const ERROR: Partial<Record<HttpStatus, string>> = {
  [HttpStatus.NOT_FOUND]: 'Not Found',
  [HttpStatus.BAD_REQUEST]: 'Bad Request',
  [HttpStatus.PAYLOAD_TOO_LARGE]: 'Payload Too Large',
  [HttpStatus.CONFLICT]: 'Conflict',
};

/**
 * The HTTP answer for a `QueueError` from a `RunQueue` call about the request — `not-found` (an
 * unknown run id, or a run of another owner: the same answer) a 404; invalid input, deps or
 * decisions a 400; an oversized prompt or deps a 413; a `conflict` or `invalid-state` a 409 — or
 * `undefined` for anything else. The body carries the queue's message, which golem wrote about the
 * request (never a tool's or a model's text: those stay in the run store and the worker's logs).
 * Recognised by its brand, so `golem/nestjs/queue` loads no queue code for it.
 */
export function queueErrorResponse(exception: unknown): HttpException | undefined {
  if (!GolemError.isGolemError(exception) || exception.kind !== 'QueueError') return undefined;
  const status = STATUS[(exception as unknown as { reason: QueueErrorReason }).reason];
  if (status === undefined) return undefined;
  const body = { statusCode: status, error: ERROR[status] ?? 'Error', message: exception.message };
  return new HttpException(body, status, { cause: exception });
}

/**
 * `GolemExceptionFilter` that also answers the queue's errors (see {@link queueErrorResponse}):
 * register it instead, globally (`{ provide: APP_FILTER, useClass: GolemQueueExceptionFilter }`)
 * or per controller, so a controller can simply `return this.runs.status(id, { owner })`.
 */
@Catch()
export class GolemQueueExceptionFilter extends GolemExceptionFilter {
  /** Answers a queue error of the request, or defers to `GolemExceptionFilter`. */
  override catch(exception: unknown, host: ArgumentsHost): void {
    const answer = host.getType() === 'http' ? queueErrorResponse(exception) : undefined;
    super.catch(answer ?? exception, host);
  }
}
