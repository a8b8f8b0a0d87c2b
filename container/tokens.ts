import type { Agent as EngineAgent, Model } from '../src/core/index';
import type { DepsOf, OutputOf, PausableOf, AgentDefinition } from '../decorators/index';
import { compileAgentClass } from '../decorators/index';
import { checkModelName as checkName } from '../src/providers/resolve/wiring';
import { ConfigError } from '../src/core/index';
import { containerError, containerFail, nameOf } from './errors';

/**
 * A typed service identifier: an abstract class standing for a `T`. Inversify infers `T` from
 * it, so `container.get(token)` and `@inject(token)` are typed without restating `T`.
 */
export type Token<T> = abstract new (...args: unknown[]) => T;

/** A concrete agent class (constructor arguments come from the container). */
export type AgentClass = new (...args: never[]) => object;

/**
 * The engine agent the container builds for the agent class `C`, typed from the class's markers
 * (`[DEPS_TYPE]`, `[OUTPUT_TYPE]`, `[PAUSABLE_TYPE]`): `ResolvedAgent<typeof WeatherAgent>` is
 * `Agent<User, Forecast>` when `WeatherAgent` declares those types.
 */
export type ResolvedAgent<C extends AgentClass> = EngineAgent<
  DepsOf<InstanceType<C>>,
  OutputOf<InstanceType<C>>,
  PausableOf<InstanceType<C>>
>;

/** The token of the engine agent built for the agent class `C` (see {@link agentOf}). */
export type AgentToken<C extends AgentClass> = Token<ResolvedAgent<C>>;

/**
 * The run store every agent of the container checkpoints its runs in (durable runs): bind it once
 * with `golemModule({ store })` (or `container.bind(RUN_STORE).toConstantValue(store)`); an agent
 * binding's own `store` option wins. Read it with `container.get<RunStore>(RUN_STORE)`.
 */
export const RUN_STORE: unique symbol = Symbol.for('golem.container.runStore');

/**
 * The instrumentation every agent of the container traces its runs with (e.g.
 * `otelInstrumentation()` from `golem/otel`): bind it once with `golemModule({ instrumentation })`;
 * an agent binding's own `instrumentation` option wins.
 */
export const INSTRUMENTATION: unique symbol = Symbol.for('golem.container.instrumentation');

/**
 * The price table every agent of the container prices its responses with (`result.cost`): bind it
 * once with `golemModule({ prices })`; an agent binding's own `prices` option wins.
 */
export const PRICES: unique symbol = Symbol.for('golem.container.prices');

/** Tokens are shared by every copy of the package loaded in one process. */
interface TokenRegistry {
  readonly models: Map<string, Token<Model>>;
  readonly agents: WeakMap<object, Token<unknown>>;
}

const REGISTRY_KEY = Symbol.for('golem.container.tokens');
const registry: TokenRegistry = ((globalThis as Record<symbol, TokenRegistry | undefined>)[
  REGISTRY_KEY
] ??= { models: new Map(), agents: new WeakMap() });

/**
 * A token is an abstract-looking class, so inversify infers its type. Only inversify's `autobind`
 * ever instantiates one (for a token nothing is bound to); `unbound` is then the error thrown.
 */
function makeToken<T>(label: string, unbound: () => Error): Token<T> {
  const token = class {
    constructor() {
      throw unbound();
    }
  };
  Object.defineProperty(token, 'name', { value: label });
  return token as unknown as Token<T>;
}

/**
 * The token of the model bound to `name` (`'default'`, `'fast'`, `'openai:gpt-4o-mini'`). One token
 * per name, so `container.get(modelToken('fast'))` returns the model an agent declaring
 * `@Agent({ model: 'fast' })` calls.
 */
export function modelToken(name: string): Token<Model> {
  checkModelName(name, 'modelToken');
  let token = registry.models.get(name);
  if (token === undefined) {
    token = makeToken<Model>(`model(${name})`, () =>
      containerError(`no model is bound to "${name}"`, {
        reason: 'unbound-model',
        model: name,
      }),
    );
    registry.models.set(name, token);
  }
  return token;
}

/** Throws `invalid-options` unless `name` is a non-empty string. */
export function checkModelName(name: unknown, where: string): asserts name is string {
  checkName(name, where, containerFail);
}

/**
 * The compiled definition of an agent class; a class without `@Agent` (or a non-class) is a
 * `not-an-agent` container `ConfigError`. Other declaration mistakes stay `ConfigError`s of
 * component `decorators`.
 */
export function definitionOf(target: unknown): AgentDefinition {
  try {
    return compileAgentClass(target);
  } catch (error) {
    if (!ConfigError.is(error, 'decorators', 'not-an-agent')) throw error;
    const name = nameOf(target);
    const message =
      typeof target === 'function'
        ? `${name} is not an agent class: it has no @Agent decorator; decorate it with @Agent({ model: 'default' }) from golem/decorators`
        : `expected an agent class, got ${name}; pass the class decorated with @Agent (an undefined class often means a circular import)`;
    throw containerError(message, { reason: 'not-an-agent', agent: name, cause: error });
  }
}

/** The `unbound-agent` error for the agent class named `name`. */
export function unboundAgent(name: string): ConfigError {
  return containerError(
    `${name} is not bound in this container; add it to golemModule({ agents: [${name}] }) or call bindAgent(container, ${name})`,
    { reason: 'unbound-agent', agent: name },
  );
}

/**
 * The typed token of the engine agent built for the agent class `target`:
 * `container.get(agentOf(WeatherAgent))` is an `Agent<User, Forecast>` (from the class's markers),
 * and `@inject(agentOf(WeatherAgent))` injects it. Bind the class first (`golemModule({ agents })`
 * or `bindAgent`). Throws a `not-an-agent` container `ConfigError` for a class without `@Agent`.
 */
export function agentOf<C extends AgentClass>(target: C): AgentToken<C> {
  definitionOf(target);
  let token = registry.agents.get(target);
  if (token === undefined) {
    token = makeToken(`agentOf(${nameOf(target)})`, () => unboundAgent(nameOf(target)));
    registry.agents.set(target, token);
  }
  return token as AgentToken<C>;
}
