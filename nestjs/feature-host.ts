import {
  Inject,
  Scope,
  type InjectionToken,
  type BeforeApplicationShutdown,
  type OnApplicationBootstrap,
  type OnApplicationShutdown,
  type OnModuleDestroy,
  type OnModuleInit,
} from '@nestjs/common';
import { ModuleRef, type ContextId, type ModulesContainer } from '@nestjs/core';
import { nestError, nameOf } from './errors';
import type { AgentClass } from './tokens';

/** The parts of a Nest module (`@nestjs/core`'s `Module`) read here; stable since Nest 8. */
export interface NestModuleView {
  readonly metatype: unknown;
  readonly imports: ReadonlySet<NestModuleView>;
  readonly providers: ReadonlyMap<
    unknown,
    { readonly instance: unknown; readonly metatype?: unknown }
  >;
  readonly controllers: ReadonlyMap<unknown, { readonly metatype?: unknown }>;
}

/** The modules of the application, as `ModulesContainer` lists them. */
export function modulesOf(container: ModulesContainer): NestModuleView[] {
  return [...(container.values() as Iterable<unknown>)] as NestModuleView[];
}

// Nest's metadata keys for constructor dependencies (`@nestjs/common/constants`, unchanged since
// Nest 5).
const PARAMTYPES = 'design:paramtypes';
const SELF_DECLARED = 'self:paramtypes';

function tokenName(token: unknown): string {
  if (typeof token === 'function') return nameOf(token);
  if (typeof token === 'symbol') return token.toString();
  return String(token);
}

/** The injection tokens of `target`'s constructor, as Nest resolves them. */
function constructorTokens(target: AgentClass): unknown[] {
  const types = [...((Reflect.getMetadata(PARAMTYPES, target) as unknown[] | undefined) ?? [])];
  const declared =
    (Reflect.getMetadata(SELF_DECLARED, target) as
      { index: number; param: unknown }[] | undefined) ?? [];
  for (const { index, param } of declared) {
    const ref = (param as { forwardRef?: unknown } | null)?.forwardRef;
    types[index] = typeof ref === 'function' ? (ref as () => unknown)() : param;
  }
  return types;
}

type Hook =
  | 'onModuleInit'
  | 'onApplicationBootstrap'
  | 'onModuleDestroy'
  | 'beforeApplicationShutdown'
  | 'onApplicationShutdown';

/**
 * The module that imports one `GolemModule.forFeature(…)`: agent class instances are created in
 * its context, so their constructors get its own providers. Nest calls the lifecycle hooks of the
 * singleton instances through this object.
 */
export class FeatureHost
  implements
    OnModuleInit,
    OnApplicationBootstrap,
    OnModuleDestroy,
    BeforeApplicationShutdown,
    OnApplicationShutdown
{
  private readonly singletons: object[] = [];

  constructor(
    /** The host module's class name, for messages. */
    readonly moduleName: string,
    /** The host module's `ModuleRef`. */
    readonly ref: ModuleRef,
  ) {}

  /**
   * An instance of `target` built by Nest in the host's context. Without `contextId` (a singleton
   * agent) a `REQUEST`-scoped dependency is refused with a typed error naming the fix.
   */
  async create<T extends object>(target: AgentClass, contextId?: ContextId): Promise<T> {
    if (contextId === undefined) this.refuseRequestScoped(target);
    const instance = (await this.ref.create(target as never, contextId)) as T;
    if (contextId === undefined) this.singletons.push(instance);
    return instance;
  }

  /**
   * The providers `tokens` name, resolved as a constructor in the host's context would get them
   * (Nest waits for async providers that are not built yet).
   */
  async inject(tokens: readonly InjectionToken[]): Promise<unknown[]> {
    if (tokens.length === 0) return [];
    const holder = class GolemInjected {
      readonly values: unknown[];
      constructor(...values: unknown[]) {
        this.values = values;
      }
    };
    tokens.forEach((token, index) => {
      Inject(token)(holder, undefined, index);
    });
    return (await this.ref.create(holder)).values;
  }

  private refuseRequestScoped(target: AgentClass): void {
    for (const token of constructorTokens(target)) {
      let scope: Scope | undefined;
      try {
        scope = this.ref.introspect(token as never).scope;
      } catch {
        continue; // unknown here: Nest's own injector reports it, naming the module
      }
      if (scope !== Scope.REQUEST) continue;
      const agent = nameOf(target);
      throw nestError(
        `${agent} (registered with GolemModule.forFeature in ${this.moduleName}) injects ${tokenName(token)}, which is REQUEST-scoped (or depends on a REQUEST-scoped provider), but the agent is a singleton built once at startup: pass per-request data through the run's deps (agent.run(prompt, { deps })), or register the agent per request with GolemModule.forFeature([{ agent: ${agent}, scope: 'request' }])`,
        { reason: 'request-scoped-dependency', agent, module: this.moduleName },
      );
    }
  }

  private async call(hook: Hook, signal?: string): Promise<void> {
    for (const instance of this.singletons) {
      const method = (instance as Partial<Record<Hook, unknown>>)[hook];
      if (typeof method === 'function')
        await (method as (s?: string) => unknown).call(instance, signal);
    }
  }

  /** Forwards Nest's hook to the agent instances. */
  onModuleInit(): Promise<void> {
    return this.call('onModuleInit');
  }
  /** Forwards Nest's hook to the agent instances. */
  onApplicationBootstrap(): Promise<void> {
    return this.call('onApplicationBootstrap');
  }
  /** Forwards Nest's hook to the agent instances. */
  onModuleDestroy(): Promise<void> {
    return this.call('onModuleDestroy');
  }
  /** Forwards Nest's hook to the agent instances. */
  beforeApplicationShutdown(signal?: string): Promise<void> {
    return this.call('beforeApplicationShutdown', signal);
  }
  /** Forwards Nest's hook to the agent instances. */
  onApplicationShutdown(signal?: string): Promise<void> {
    return this.call('onApplicationShutdown', signal);
  }
}

/**
 * The host of the forFeature module whose class is `feature`: the one module importing it.
 * `agents` names the registered classes for messages.
 */
export function findHost(
  container: ModulesContainer,
  feature: unknown,
  agents: readonly string[],
): FeatureHost {
  const modules = modulesOf(container);
  const own = modules.find((m) => m.metatype === feature);
  const hosts = own === undefined ? [] : modules.filter((m) => m.imports.has(own));
  const call = `GolemModule.forFeature([${agents.join(', ')}])`;
  if (hosts.length !== 1) {
    throw nestError(
      hosts.length === 0
        ? `${call} is not imported by any module; put it in the imports of the feature module whose providers the agents inject`
        : `the same ${call} is imported by ${hosts.map((h) => nameOf(h.metatype)).join(' and ')}; call GolemModule.forFeature once in each module (agents are created in the context of the module that imports the call)`,
      { reason: 'invalid-options', ...(agents[0] !== undefined && { agent: agents[0] }) },
    );
  }
  const host = hosts[0] as NestModuleView;
  const ref = host.providers.get(ModuleRef)?.instance as Partial<ModuleRef> | undefined;
  if (typeof ref?.create !== 'function' || typeof ref.introspect !== 'function') {
    throw nestError(
      `GolemModule: the module ${nameOf(host.metatype)} has no ModuleRef; this version of @nestjs/core is not supported (use Nest 10, 11 or 12)`,
      { reason: 'missing-peer', module: nameOf(host.metatype) },
    );
  }
  return new FeatureHost(nameOf(host.metatype), ref as ModuleRef);
}
