import type { ResolutionContext, ServiceIdentifier } from 'inversify';
import type { Middleware } from '../src/core/index';
import { isMiddlewareObject, middlewareOf, type MiddlewareClass } from '../decorators/index';
import { containerError } from './errors';
import { ensureInjectable } from './injectable';

/**
 * Multi-bound token of the app-wide middleware: every middleware bound to it runs on every agent
 * the container builds, in binding order, outside the agent class's own `@UseMiddleware` (so
 * app-wide logging sees what the class's middleware did). Bind with `golemModule({ middleware })`
 * or, for a class with constructor injection, `container.bind(MIDDLEWARE).to(AuditMiddleware)`.
 * An agent binding's own `middleware` option replaces the whole list.
 */
export const MIDDLEWARE: unique symbol = Symbol.for('golem.container.middleware');

/** Makes the `@UseMiddleware` classes of `agentClass` injectable, so the container can create them. */
export function prepareMiddlewareClasses(agentClass: object): void {
  for (const entry of middlewareOf(agentClass))
    if (typeof entry === 'function') ensureInjectable(entry);
}

/**
 * The middleware an agent class runs with in a container: the app-wide `MIDDLEWARE` bindings,
 * then the class's `@UseMiddleware` entries, classes resolved from the container (a bound class
 * as bound, an unbound one created with constructor injection, like `autobind`).
 */
export function middlewareForAgent(
  ctx: Pick<ResolutionContext, 'get' | 'getAll'>,
  agentClass: object,
  agentName: string,
): Middleware[] {
  const appWide = ctx.getAll<Middleware>(MIDDLEWARE, { optional: true });
  appWide.forEach((entry, index) => {
    if (!isMiddlewareObject(entry))
      throw containerError(
        `the middleware bound to MIDDLEWARE (#${index}) has no request, generate, stream or tool hook`,
        { reason: 'invalid-options', agent: agentName },
      );
  });
  const own = middlewareOf(agentClass).map((entry): Middleware => {
    if (typeof entry !== 'function') return entry;
    const made: unknown = ctx.get(entry as unknown as ServiceIdentifier, {
      autobind: true,
    });
    if (isMiddlewareObject(made)) return made;
    throw containerError(
      `${agentName}: the @UseMiddleware class ${nameOf(entry)} has no request, generate, stream or tool method`,
      { reason: 'invalid-options', agent: agentName },
    );
  });
  return [...appWide, ...own];
}

function nameOf(entry: MiddlewareClass): string {
  return entry.name === '' ? '(anonymous)' : entry.name;
}
