import {
  createParamDecorator,
  Injectable,
  Optional,
  UnauthorizedException,
  type ExecutionContext,
  type PipeTransform,
} from '@nestjs/common';
import { nestError } from './errors';

/**
 * Who a request acts for, as `GolemModule.forRoot({ runOwner })` reads it from the platform's
 * request (Express's or Fastify's): typically the authenticated user or tenant,
 * `(request) => request.user?.id`. `undefined` (or `null`, `''`) means the request has no owner:
 * `@RunOwner()` then answers 401.
 */
export type RunOwnerOf = (
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the platform's request type is the app's
  request: any,
) => string | null | undefined | Promise<string | null | undefined>;

/**
 * The `runOwner` function of `GolemModule.forRoot`, provided by the root module (global): what
 * `@RunOwner()` applies to each request.
 */
export class GolemRunOwner {
  /** @internal Built by `GolemModule.forRoot`. */
  constructor(private readonly of: RunOwnerOf | undefined) {}

  /**
   * The owner of `request`: a non-empty string. Throws `UnauthorizedException` (401) when the
   * function finds none, and an `invalid-options` `golem/nestjs` `ConfigError` when no function is
   * configured or it returns something else than a string.
   */
  async ownerOf(request: unknown): Promise<string> {
    if (this.of === undefined)
      throw nestError(
        "@RunOwner() needs the function that reads a request's owner: GolemModule.forRoot({ runOwner: (request) => request.user?.id })",
        { reason: 'invalid-options' },
      );
    const owner: unknown = await this.of(request);
    if (owner === undefined || owner === null || owner === '')
      throw new UnauthorizedException('this request has no run owner');
    if (typeof owner !== 'string')
      throw nestError(
        `GolemModule.forRoot: runOwner must return a string (or undefined for no owner), got ${typeof owner}`,
        { reason: 'invalid-options' },
      );
    return owner;
  }
}

/** Applies the root module's `runOwner` to the request `@RunOwner()` hands it. */
@Injectable()
export class RunOwnerPipe implements PipeTransform<unknown, Promise<string>> {
  constructor(@Optional() private readonly owners?: GolemRunOwner) {}

  /** The owner of `request` (see {@link GolemRunOwner.ownerOf}). */
  transform(request: unknown): Promise<string> {
    return (this.owners ?? new GolemRunOwner(undefined)).ownerOf(request);
  }
}

const currentRequest = createParamDecorator((_data: unknown, context: ExecutionContext): unknown =>
  context.switchToHttp().getRequest(),
);

/**
 * A route handler parameter: the owner of the request, read by `GolemModule.forRoot({ runOwner:
 * (request) => request.user?.id })` — pass it as `{ owner }` to every `run`, `resume`,
 * `resumeRun`, `loadRun` and `listRuns`, so a request sees only its owner's runs (any other is
 * `not-found`, which `GolemExceptionFilter` answers with a 404). A request without an owner is
 * answered 401 before the handler runs.
 *
 * ```ts
 * @Post(':runId/approve')
 * approve(@Param('runId') runId: string, @RunOwner() owner: string) {
 *   return this.payments.resume(runId, { approvals: { … } }, { owner });
 * }
 * ```
 */
export function RunOwner(): ParameterDecorator {
  return currentRequest(undefined, RunOwnerPipe);
}
