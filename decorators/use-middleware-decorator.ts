import type { Middleware } from '../src/core/index';
import { agentDefinitionError, classNameOf } from './errors';
import type { AnyClass } from './markers';
import { classChain, prependOwn, readOwn } from './metadata';

/** The metadata key `@UseMiddleware` records under. */
export const USE_MIDDLEWARE_KEY = 'golem:use-middleware';

/** A class whose instances are middleware: the container or the Nest module creates it (with injection). */
export type MiddlewareClass = abstract new (...args: never[]) => Middleware;

/** What `@UseMiddleware` takes: a middleware object, or a middleware class to resolve. */
export type MiddlewareEntry = Middleware | MiddlewareClass;

const HOOKS = ['request', 'generate', 'stream', 'tool'] as const;

/** Whether `value` is a middleware object: an object with at least one hook, each a function. */
export function isMiddlewareObject(value: unknown): value is Middleware {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  let hooks = 0;
  for (const hook of HOOKS) {
    const fn = record[hook];
    if (fn === undefined) continue;
    if (typeof fn !== 'function') return false;
    hooks++;
  }
  return hooks > 0;
}

/**
 * Declares the agent's own middleware, in order (the first outermost), around every model call
 * and tool execution of the agent built from the class. Entries are middleware objects
 * (`logRequests()`, `redactPii()` from `golem/middleware`) or middleware classes, which the
 * container (`golemModule`) and the Nest module (`forFeature`) create with constructor
 * injection. App-wide middleware (the container's `MIDDLEWARE` bindings, `GolemModule.forRoot({
 * middleware })`) runs outside the class's own. Repeated decorators keep reading order; a
 * subclass's run inside its bases'. The Nest counterpart of `@UseInterceptors` on a controller.
 *
 * ```ts
 * @Agent({ model: 'default' })
 * @UseMiddleware(redactPii(), AuditMiddleware)
 * class SupportAgent {}
 * ```
 */
export function UseMiddleware(...middleware: MiddlewareEntry[]): (target: AnyClass) => void {
  return (target) => {
    middleware.forEach((entry, index) => {
      if (typeof entry === 'function' || isMiddlewareObject(entry)) return;
      throw agentDefinitionError(
        'invalid-option',
        `@UseMiddleware argument ${index} is neither a middleware object (with request, generate, stream or tool) nor a middleware class`,
        {
          className: classNameOf(target),
          hint: 'pass e.g. logRequests() from golem/middleware, or an @Injectable class implementing Middleware',
        },
      );
    });
    // Decorators apply bottom-up: prepending keeps the order they are read in.
    prependOwn(USE_MIDDLEWARE_KEY, target, Object.freeze([...middleware]));
  };
}

/**
 * The `@UseMiddleware` entries of an agent class, its bases' first, in order (empty without
 * any). Classes are returned as they are, for the caller to resolve.
 */
export function middlewareOf(agentClass: object): readonly MiddlewareEntry[] {
  const out: MiddlewareEntry[] = [];
  for (const owner of classChain(agentClass)) {
    const groups = readOwn(USE_MIDDLEWARE_KEY, owner) as
      readonly (readonly MiddlewareEntry[])[] | undefined;
    for (const group of groups ?? []) out.push(...group);
  }
  return Object.freeze(out);
}

/**
 * The middleware of `entries`, classes turned into instances by `resolve` (synchronously or
 * not); an instance without a hook is a `ConfigError` (component `decorators`) naming the class
 * and the agent. Used by the container and the Nest module.
 */
export async function resolveMiddleware(
  entries: readonly MiddlewareEntry[],
  resolve: (middlewareClass: MiddlewareClass) => unknown,
  agentClassName: string,
): Promise<Middleware[]> {
  const out: Middleware[] = [];
  for (const entry of entries) out.push(await resolveOne(entry, resolve, agentClassName));
  return out;
}

/** Like {@link resolveMiddleware}, for a resolver that never returns a promise. */
export function resolveMiddlewareSync(
  entries: readonly MiddlewareEntry[],
  resolve: (middlewareClass: MiddlewareClass) => Middleware,
  agentClassName: string,
): Middleware[] {
  return entries.map((entry) => {
    if (typeof entry !== 'function') return entry;
    return checkInstance(resolve(entry), entry, agentClassName);
  });
}

async function resolveOne(
  entry: MiddlewareEntry,
  resolve: (middlewareClass: MiddlewareClass) => unknown,
  agentClassName: string,
): Promise<Middleware> {
  if (typeof entry !== 'function') return entry;
  return checkInstance(await resolve(entry), entry, agentClassName);
}

function checkInstance(value: unknown, entry: MiddlewareClass, agentClassName: string): Middleware {
  if (isMiddlewareObject(value)) return value;
  throw agentDefinitionError(
    'invalid-option',
    `the middleware class ${classNameOf(entry)} of @UseMiddleware has no request, generate, stream or tool method`,
    { className: agentClassName, hint: 'implement at least one hook of Middleware (golem)' },
  );
}
