import { Inject, type Type } from '@nestjs/common';
import type { Agent as EngineAgent, Model } from '../src/core/index';
import type { AgentDefinition, DepsOf, OutputOf, PausableOf } from '../decorators/index';
import { compileAgentClass } from '../decorators/index';
import { checkModelName as checkName } from '../src/providers/resolve/wiring';
import { ConfigError } from '../src/core/index';
import { nestError, nameOf, nestFail } from './errors';

/** A concrete agent class: decorated with `@Agent`; Nest injects its constructor arguments. */
export type AgentClass = new (...args: never[]) => object;

/**
 * The engine agent built for the agent class `C`, typed from the class's markers (`[DEPS_TYPE]`,
 * `[OUTPUT_TYPE]`, `[PAUSABLE_TYPE]`): `InjectedAgent<typeof WeatherAgent>` is
 * `Agent<User, Forecast>` when `WeatherAgent` declares those types. The type to write beside
 * `@InjectAgent(WeatherAgent)`.
 */
export type InjectedAgent<C extends AgentClass> = EngineAgent<
  DepsOf<InstanceType<C>>,
  OutputOf<InstanceType<C>>,
  PausableOf<InstanceType<C>>
>;

/** Tokens are shared by every copy of the package loaded in one process. */
interface TokenRegistry {
  readonly models: Map<string, Type<Model>>;
  readonly agents: WeakMap<object, Type<unknown>>;
  readonly injections: WeakMap<object, Type<unknown>>;
  /** Every agent class some `@InjectAgent` names, for the unregistered-agent diagnostics. */
  readonly injected: Set<AgentClass>;
}

const REGISTRY_KEY = Symbol.for('golem.nestjs.tokens');
const registry: TokenRegistry = ((globalThis as Record<symbol, TokenRegistry | undefined>)[
  REGISTRY_KEY
] ??= { models: new Map(), agents: new WeakMap(), injections: new WeakMap(), injected: new Set() });

/** A token is a class that is never instantiated: Nest names it in messages by its name. */
export function makeToken<T>(label: string): Type<T> {
  const token = class {
    constructor() {
      throw new TypeError(`${label} is an injection token, not a class to instantiate`);
    }
  };
  Object.defineProperty(token, 'name', { value: label });
  return token as unknown as Type<T>;
}

/** Throws `invalid-options` unless `name` is a non-empty string. */
export function checkModelName(name: unknown, where: string): asserts name is string {
  checkName(name, where, nestFail);
}

/**
 * The Nest injection token of the model bound to `name` (`'default'`, `'fast'`,
 * `'openai:gpt-4o-mini'`): what an agent declaring `@Agent({ model: name })` is built with, what
 * `moduleRef.get(getModelToken('default'))` returns (typed `Model`), and what a test replaces:
 * `Test.createTestingModule(…).overrideProvider(getModelToken('default')).useValue(model)`.
 */
export function getModelToken(name = 'default'): Type<Model> {
  checkModelName(name, 'getModelToken');
  let token = registry.models.get(name);
  if (token === undefined) {
    token = makeToken<Model>(`GolemModel(${name})`);
    registry.models.set(name, token);
  }
  return token;
}

/**
 * The compiled definition of an agent class; a class without `@Agent` (or a non-class) is a
 * `not-an-agent` `golem/nestjs` `ConfigError`. Other declaration mistakes stay `ConfigError`s of
 * component `decorators`.
 */
export function definitionOf(target: unknown, where: string): AgentDefinition {
  try {
    return compileAgentClass(target);
  } catch (error) {
    if (!ConfigError.is(error, 'decorators', 'not-an-agent')) throw error;
    const name = nameOf(target);
    const message =
      typeof target === 'function'
        ? `${where}: ${name} is not an agent class: it has no @Agent decorator; decorate it with @Agent({ model: 'default' }) from golem/decorators`
        : `${where}: expected an agent class, got ${name}; pass the class decorated with @Agent (an undefined class usually means a circular import between files: move the agent to its own file)`;
    throw nestError(message, { reason: 'not-an-agent', agent: name, cause: error });
  }
}

/**
 * The Nest injection token of the engine agent built for the agent class `target`, typed from
 * the class: `moduleRef.get(getAgentToken(WeatherAgent))` is an `Agent<User, Forecast>`. It is
 * provided (and exported) by the `GolemModule.forFeature([WeatherAgent])` that registers the
 * class; `overrideProvider(getAgentToken(WeatherAgent))` replaces the agent in a test. Throws a
 * `not-an-agent` `golem/nestjs` `ConfigError` for a class without `@Agent`.
 */
export function getAgentToken<C extends AgentClass>(target: C): Type<InjectedAgent<C>> {
  definitionOf(target, 'getAgentToken');
  let token = registry.agents.get(target);
  if (token === undefined) {
    token = makeToken(`GolemAgent(${nameOf(target)})`);
    registry.agents.set(target, token);
  }
  return token as Type<InjectedAgent<C>>;
}

/**
 * The token `@InjectAgent` injects: an alias of {@link getAgentToken} that `forFeature` exports,
 * kept apart so the unregistered-agent diagnostics never shadow the agent itself.
 */
export function injectionTokenOf(target: AgentClass): Type<unknown> {
  let token = registry.injections.get(target);
  if (token === undefined) {
    token = makeToken(`InjectAgent(${nameOf(target)})`);
    registry.injections.set(target, token);
  }
  return token;
}

/** The agent classes named by some `@InjectAgent` so far. */
export function injectedAgents(): readonly AgentClass[] {
  return [...registry.injected];
}

/**
 * Injects the engine agent of the agent class `target` (a constructor parameter or a property):
 * `constructor(@InjectAgent(WeatherAgent) private readonly weather: InjectedAgent<typeof
 * WeatherAgent>)`. The module must import `GolemModule.forFeature([WeatherAgent])`, or a module
 * that does (forFeature exports it); otherwise the application fails to start with an
 * `unregistered-agent` `golem/nestjs` `ConfigError` naming the module and the fix.
 */
export function InjectAgent(target: AgentClass): PropertyDecorator & ParameterDecorator {
  definitionOf(target, 'InjectAgent');
  registry.injected.add(target);
  return Inject(injectionTokenOf(target));
}
