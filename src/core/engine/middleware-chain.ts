import { isThenable } from '../kit/guards';
import { ConfigError } from '../kit/config-error';
import { isRecord } from '../kit/guards';
import type { DeltaHandler, GenerateOptions, Model, StreamingModel } from '../contract/model';
import { isStreamingModel } from '../contract/model';
import type { ModelRequest } from '../contract/request';
import type { ModelResponse } from '../contract/response';
import type { Middleware, ToolInvocation } from './middleware';

/** Marks a model whose calls go through middleware: the engine then passes each call's scope. */
const WRAPPED = Symbol.for('golem.middleware.wrapped');

const HOOKS = ['request', 'generate', 'stream', 'tool'] as const;

/**
 * Checks a middleware list (an agent's `middleware`, or `wrapModel`'s): an array of objects,
 * each with at least one hook, every hook a function. Throws `ConfigError` naming the entry.
 * Internal.
 */
export function checkMiddleware(list: unknown, label: string): readonly Middleware[] {
  if (!Array.isArray(list))
    throw new ConfigError(`${label} must be an array of middleware objects`, {
      component: 'middleware',
    });
  for (const [i, entry] of (list as unknown[]).entries()) {
    const where = `${label}[${i}]`;
    if (!isRecord(entry))
      throw new ConfigError(`${where} must be an object with request, generate, stream or tool`, {
        component: 'middleware',
      });
    let hooks = 0;
    for (const hook of HOOKS) {
      const value = entry[hook];
      if (value === undefined) continue;
      if (typeof value !== 'function')
        throw new ConfigError(`${where}.${hook} must be a function`, { component: 'middleware' });
      hooks++;
    }
    if (hooks === 0)
      throw new ConfigError(`${where} has no hook: give it request, generate, stream or tool`, {
        component: 'middleware',
      });
  }
  return list as readonly Middleware[];
}

/** Whether `model`'s calls go through middleware (it or a fallback member was wrapped). Internal. */
export function isWrappedModel(model: Model): boolean {
  return (model as unknown as Record<symbol, unknown>)[WRAPPED] === true;
}

/** Marks `target` as wrapped (a `FallbackModel` with a wrapped member). Internal. */
export function markWrapped(target: object): void {
  Object.defineProperty(target, WRAPPED, { value: true });
}

/**
 * `model` with `middleware` around every call, the first entry outermost. The result streams when
 * `model` does, keeps its name, and works anywhere a model does: an agent's `model`, a
 * `FallbackModel` member (wrap each member for per-provider limits), or a `FallbackModel` itself.
 * Middleware with only a `tool` hook is ignored here (give it to an agent's `middleware`).
 *
 * @example
 * ```ts
 * const model = wrapModel(openai({ model: 'gpt-4o-mini' }), [logRequests(), defaultSettings({ temperature: 0 })]);
 * ```
 */
export function wrapModel(model: StreamingModel, middleware: readonly Middleware[]): StreamingModel;
export function wrapModel(model: Model, middleware: readonly Middleware[]): Model;
export function wrapModel(model: Model, middleware: readonly Middleware[]): Model {
  if (!isRecord(model) || typeof (model as Partial<Model>).generate !== 'function')
    throw new ConfigError('wrapModel needs a model: an object with generate(request, options)', {
      component: 'middleware',
    });
  const layers = checkMiddleware(middleware, 'wrapModel middleware').filter(
    (m) => m.request !== undefined || m.generate !== undefined || m.stream !== undefined,
  );
  const name = model.name;
  const generate = (request: ModelRequest, options?: GenerateOptions): Promise<ModelResponse> => {
    const at = (i: number, req: ModelRequest): Promise<ModelResponse> => {
      if (i === layers.length) return model.generate(req, options);
      const layer = layers[i] as Middleware;
      const call = (r: ModelRequest): Promise<ModelResponse> =>
        layer.generate === undefined
          ? at(i + 1, r)
          : layer.generate({ model: name, request: r, options }, (next) => at(i + 1, next));
      return layer.request === undefined ? call(req) : changed(layer, req, name, options, call);
    };
    return settle(() => at(0, request));
  };
  const wrapped: Model & Record<symbol, unknown> = { generate, [WRAPPED]: true };
  if (name !== undefined) Object.defineProperty(wrapped, 'name', { value: name, enumerable: true });
  if (!isStreamingModel(model)) return wrapped;
  const stream = (
    request: ModelRequest,
    onDelta: DeltaHandler,
    options?: GenerateOptions,
  ): Promise<ModelResponse> => {
    const at = (i: number, req: ModelRequest, handler: DeltaHandler): Promise<ModelResponse> => {
      if (i === layers.length) return model.stream(req, handler, options);
      const layer = layers[i] as Middleware;
      const call = (r: ModelRequest): Promise<ModelResponse> => {
        if (layer.stream !== undefined)
          return layer.stream(
            { model: name, request: r, options, onDelta: handler },
            (next, nextHandler) => at(i + 1, next, nextHandler),
          );
        if (layer.generate !== undefined)
          return layer.generate({ model: name, request: r, options }, (next) =>
            at(i + 1, next, handler),
          );
        return at(i + 1, r, handler);
      };
      return layer.request === undefined ? call(req) : changed(layer, req, name, options, call);
    };
    return settle(() => at(0, request, onDelta));
  };
  return Object.assign(wrapped, { stream });
}

/** Applies `layer.request`, then continues with the request it returned. */
function changed(
  layer: Middleware,
  request: ModelRequest,
  model: string | undefined,
  options: GenerateOptions | undefined,
  then: (request: ModelRequest) => Promise<ModelResponse>,
): Promise<ModelResponse> {
  const next = (layer.request as NonNullable<Middleware['request']>).call(layer, request, {
    model,
    request,
    options,
  });
  return isThenable(next) ? Promise.resolve(next).then(then) : then(next);
}

/** A synchronous throw anywhere in the chain becomes a rejection, as a provider's would. */
function settle<T>(start: () => Promise<T>): Promise<T> {
  try {
    return start();
  } catch (error) {
    // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown
    return Promise.reject(error);
  }
}

/**
 * Runs a tool execution through the `tool` hooks of `layers` (first outermost); `execute` runs
 * the tool itself. Internal.
 */
export function runToolChain(
  layers: readonly Middleware[],
  invocation: Omit<ToolInvocation, 'args'>,
  args: unknown,
  execute: (args: unknown) => Promise<string>,
): Promise<string> {
  const at = (i: number, value: unknown): Promise<string> => {
    if (i === layers.length) return execute(value);
    const layer = layers[i] as Middleware & Required<Pick<Middleware, 'tool'>>;
    return layer.tool({ ...invocation, args: value }, (next) => at(i + 1, next));
  };
  return settle(() => at(0, args));
}
