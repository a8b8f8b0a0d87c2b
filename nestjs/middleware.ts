import type { ModuleRef, ModulesContainer } from '@nestjs/core';
import type { ConfigError, Middleware } from '../src/core/index';
import { isMiddlewareObject, type MiddlewareEntry } from '../decorators/index';
import { nestError, nameOf } from './errors';
import { modulesOf } from './feature-host';

/** The metadata key `@GolemMiddleware()` marks a provider class with. */
const MARKER = 'golem:nestjs:middleware';

const HOOKS = ['request', 'generate', 'stream', 'tool'] as const;

/**
 * Marks an `@Injectable()` class implementing `Middleware` (from `golem`) as app-wide
 * middleware: wherever it is a provider, the Nest module finds it and runs it on every agent
 * `forFeature` builds — the `APP_INTERCEPTOR` of agents. It must be a singleton (not
 * `REQUEST`-scoped); it is created by Nest like any provider, so its constructor injects that
 * module's providers.
 *
 * ```ts
 * @Injectable()
 * @GolemMiddleware()
 * export class AuditMiddleware implements Middleware {
 *   constructor(private readonly audit: AuditService) {}
 *   async generate(call: ModelCall, next: (r: ModelRequest) => Promise<ModelResponse>) { … }
 * }
 * ```
 */
export function GolemMiddleware(): ClassDecorator {
  return (target) => {
    Reflect.defineMetadata(MARKER, true, target);
  };
}

/** Whether `target` is marked with `@GolemMiddleware()`. */
function isMarked(target: unknown): target is abstract new (...args: never[]) => unknown {
  return typeof target === 'function' && Reflect.getMetadata(MARKER, target) === true;
}

/**
 * The app-wide middleware of the application: `GolemModule.forRoot({ middleware })` in order,
 * then every `@GolemMiddleware()` provider in module registration order (a class also listed in
 * `forRoot` runs once, at its `forRoot` place). Every agent `forFeature` builds runs them
 * outside its class's own `@UseMiddleware`.
 */
export class GolemAppMiddleware {
  constructor(
    /** The middleware, outermost first. */
    readonly list: readonly Middleware[],
  ) {}
}

/** Throws `invalid-options` unless `middleware` is an array of middleware objects or classes. */
export function checkMiddlewareOption(
  middleware: unknown,
  where: string,
): readonly MiddlewareEntry[] {
  if (middleware === undefined) return [];
  const fail = (message: string): ConfigError =>
    nestError(`${where}: ${message}`, { reason: 'invalid-options' });
  if (!Array.isArray(middleware))
    throw fail('middleware must be an array of middleware objects or classes');
  (middleware as unknown[]).forEach((entry, index) => {
    if (typeof entry !== 'function' && !isMiddlewareObject(entry))
      throw fail(
        `middleware[${index}] must be a middleware object (request, generate, stream or tool) or a class implementing Middleware`,
      );
  });
  return middleware as readonly MiddlewareEntry[];
}

/** The parts of Nest's `InstanceWrapper` read here (stable since Nest 8). */
interface ProviderView {
  readonly instance: unknown;
  readonly metatype?: unknown;
  isDependencyTreeStatic?(): boolean;
}

/**
 * Builds the app-wide middleware: `forRoot`'s entries (classes created by Nest in the root
 * module's context) and the discovered `@GolemMiddleware()` providers. A discovered provider is
 * used through a delegate that reads the provider's instance at call time, so the order in which
 * Nest instantiates modules never matters.
 */
export async function appMiddleware(
  entries: readonly MiddlewareEntry[],
  ref: ModuleRef,
  container: ModulesContainer,
): Promise<GolemAppMiddleware> {
  const list: Middleware[] = [];
  const listed = new Set<unknown>();
  for (const entry of entries) {
    if (typeof entry !== 'function') {
      list.push(entry);
      continue;
    }
    listed.add(entry);
    list.push(instanceOf(await ref.create(entry as never), entry));
  }
  for (const module of modulesOf(container))
    for (const wrapper of module.providers.values() as Iterable<ProviderView>) {
      const { metatype } = wrapper;
      if (!isMarked(metatype) || listed.has(metatype)) continue;
      listed.add(metatype);
      list.push(delegate(wrapper, metatype));
    }
  return new GolemAppMiddleware(list);
}

function instanceOf(value: unknown, entry: unknown): Middleware {
  if (isMiddlewareObject(value)) return value;
  throw nestError(
    `the middleware class ${nameOf(entry)} has no request, generate, stream or tool method`,
    { reason: 'invalid-options' },
  );
}

/** A middleware calling the hooks of `wrapper`'s instance, which is read on every call. */
function delegate(
  wrapper: ProviderView,
  metatype: abstract new (...args: never[]) => unknown,
): Middleware {
  const name = nameOf(metatype);
  if (typeof wrapper.isDependencyTreeStatic === 'function' && !wrapper.isDependencyTreeStatic())
    throw nestError(
      `@GolemMiddleware() ${name} is REQUEST-scoped (or depends on a REQUEST-scoped provider), but app-wide middleware is shared by every request: make it a singleton and read per-request data from the call's scope (owner, conversation) or the run's deps`,
      { reason: 'request-scoped-dependency' },
    );
  const proto = metatype.prototype as Record<string, unknown>;
  const hooks = HOOKS.filter((hook) => typeof proto[hook] === 'function');
  if (hooks.length === 0)
    throw nestError(`@GolemMiddleware() ${name} has no request, generate, stream or tool method`, {
      reason: 'invalid-options',
    });
  const current = (): Record<string, (...args: unknown[]) => unknown> =>
    wrapper.instance as Record<string, (...args: unknown[]) => unknown>;
  const out: Record<string, unknown> = { name };
  for (const hook of hooks)
    out[hook] = (...args: unknown[]) => {
      const instance = current();
      return (instance[hook] as (...a: unknown[]) => unknown).apply(instance, args);
    };
  return out;
}
