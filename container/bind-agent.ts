import type { Newable, ResolutionContext } from 'inversify';
import type { Model, PriceTable, RunInstrumentation, RunStore } from '../src/core/index';
import type { AgentDefinition, AgentFromClassOptions, DepsOf } from '../decorators/index';
import { agentFromClass } from '../decorators/index';
import { checkConstructorMetadata, missingMetadataError } from './constructor-metadata';
import { containerError, forAgent, nameOf, isContainerError } from './errors';
import { ensureInjectable } from './injectable';
import { modelFor, type Binder } from './model-bindings';
import { MEMORY, memoryForAgent } from './memory';
import { middlewareForAgent, prepareMiddlewareClasses } from './middleware';
import { handoffsForAgent } from './handoffs';
import type { AgentMemory } from '../src/memory/index';
import {
  agentOf,
  checkModelName,
  RUN_STORE,
  INSTRUMENTATION,
  PRICES,
  definitionOf,
  type AgentClass,
  type ResolvedAgent,
} from './tokens';

/**
 * How long one instance of an agent class lives in its container: `Singleton` (default; one
 * instance, safe to run concurrently when the class keeps no per-run state in fields),
 * `Transient` (a new instance per resolution) or `Request` (one per `container.get` graph).
 */
export type AgentScope = 'Singleton' | 'Transient' | 'Request';

/** Options of {@link bindAgent}: the instance's scope and the engine hooks of its agent. */
export interface AgentBindingOptions<Deps = unknown> extends Omit<
  AgentFromClassOptions<Deps>,
  'model'
> {
  /** The scope of the class instance; default `Singleton`. */
  scope?: AgentScope;
  /** The model binding to use instead of the class's `@Agent({ model })`. */
  model?: string;
}

/** One agent class bound in a container, as `createRequestScope` re-binds it. */
export interface AgentRegistration {
  readonly target: AgentClass;
  readonly scope: AgentScope;
}

/** Multi-bound token listing the agent classes bound in a container (and its parents). */
export const AGENT_REGISTRATIONS: unique symbol = Symbol.for('golem.container.agents');

const SCOPES: readonly AgentScope[] = ['Singleton', 'Transient', 'Request'];

/**
 * Binds the agent class `target`: the class itself (constructor injection, in `options.scope`)
 * and `agentOf(target)`, the engine `Agent` built from the instance with the model bound to the
 * class's `@Agent({ model })` name. The class needs no `@injectable()`: it is made injectable
 * here (an existing `@injectable()` is kept). Without decorator metadata (tsx, esbuild, Vite ≤ 7)
 * every constructor parameter needs `@inject(Token)`; one without is a `missing-metadata`
 * container `ConfigError` here. The agent is built when resolved — after any
 * `overrideModel` — and reused while the instance and the model stay the same.
 *
 * ```ts
 * new ContainerModule((options) => bindAgent(options, WeatherAgent, { onEvent: log }));
 * container.get(agentOf(WeatherAgent)); // Agent<User, Forecast>
 * ```
 */
export function bindAgent<C extends AgentClass>(
  binder: Binder,
  target: C,
  options: AgentBindingOptions<DepsOf<InstanceType<C>>> = {},
): void {
  const definition = definitionOf(target);
  const scope = options.scope ?? 'Singleton';
  if (!SCOPES.includes(scope)) {
    throw containerError(
      `bindAgent: ${definition.className} has the scope ${JSON.stringify(scope)}; use one of ${SCOPES.join(', ')}`,
      { reason: 'invalid-options', agent: definition.className },
    );
  }
  if (options.model !== undefined) checkModelName(options.model, 'bindAgent');
  ensureInjectable(target);
  prepareMiddlewareClasses(target);
  checkConstructorMetadata(target, definition.className);
  bindInstance(binder, target, scope);
  binder
    .bind(agentOf(target))
    .toDynamicValue(agentFactory(target, definition, options))
    .inTransientScope();
  const registration: AgentRegistration = Object.freeze({ target, scope });
  binder.bind<AgentRegistration>(AGENT_REGISTRATIONS).toConstantValue(registration);
}

/**
 * Binds the class itself, to itself, in `scope`. Inversify's "missing metadata" error (it checks
 * the constructor here) becomes a `missing-metadata` container `ConfigError`.
 */
export function bindInstance(binder: Binder, target: AgentClass, scope: AgentScope): void {
  let syntax;
  try {
    syntax = binder.bind(target as unknown as Newable<object>).toSelf();
  } catch (error) {
    throw missingMetadataError(error, nameOf(target)) ?? error;
  }
  if (scope === 'Transient') syntax.inTransientScope();
  else if (scope === 'Request') syntax.inRequestScope();
  else syntax.inSingletonScope();
}

/** The agent classes bound in the container resolving `ctx`. */
function boundAgentClasses(ctx: ResolutionContext): ReadonlySet<unknown> {
  const registrations = ctx.getAll<AgentRegistration>(AGENT_REGISTRATIONS, { optional: true });
  return new Set(registrations.map((registration) => registration.target));
}

function agentFactory<C extends AgentClass>(
  target: C,
  definition: AgentDefinition,
  options: AgentBindingOptions<DepsOf<InstanceType<C>>>,
): (ctx: ResolutionContext) => ResolvedAgent<C> {
  const { scope: _scope, model: modelName, ...hooks } = options;
  const name = modelName ?? definition.model;
  const built = new WeakMap<object, WeakMap<Model, ResolvedAgent<C>>>();
  return (ctx) => {
    let instance: InstanceType<C>;
    try {
      instance = ctx.get(target as unknown as Newable<InstanceType<C>>);
    } catch (error) {
      throw missingMetadataError(error, definition.className) ?? error;
    }
    let model: Model;
    try {
      model = modelFor(ctx, name);
    } catch (error) {
      throw isContainerError(error) ? forAgent(error, definition.className) : error;
    }
    let byModel = built.get(instance);
    if (byModel === undefined) {
      byModel = new WeakMap();
      built.set(instance, byModel);
    }
    let agent = byModel.get(model);
    if (agent === undefined) {
      const store = hooks.store ?? ctx.get<RunStore>(RUN_STORE, { optional: true });
      const instrumentation =
        hooks.instrumentation ?? ctx.get<RunInstrumentation>(INSTRUMENTATION, { optional: true });
      const prices = hooks.prices ?? ctx.get<PriceTable>(PRICES, { optional: true });
      const memory = memoryForAgent(
        hooks.memory ?? ctx.get<AgentMemory>(MEMORY, { optional: true }),
        target,
      );
      const middleware = hooks.middleware ?? middlewareForAgent(ctx, target, definition.className);
      const handoffs =
        hooks.handoffs ??
        handoffsForAgent<DepsOf<InstanceType<C>>>(
          ctx,
          target,
          definition.className,
          boundAgentClasses(ctx),
        );
      agent = agentFromClass(instance, {
        ...hooks,
        model,
        middleware,
        ...(store !== undefined && { store }),
        ...(instrumentation !== undefined && { instrumentation }),
        ...(prices !== undefined && { prices }),
        ...(memory !== undefined && { memory }),
        ...(handoffs !== undefined && { handoffs }),
      });
      byModel.set(model, agent);
    }
    return agent;
  };
}
