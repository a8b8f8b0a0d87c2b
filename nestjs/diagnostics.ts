import { Scope, type DynamicModule, type Provider } from '@nestjs/common';
import { INQUIRER, ModulesContainer } from '@nestjs/core';
import { nestError, nameOf } from './errors';
import { modulesOf, type NestModuleView } from './feature-host';
import { injectedAgents, injectionTokenOf, type AgentClass } from './tokens';

/** The modules declaring `consumer` (as a controller or a provider class). */
function ownersOf(container: ModulesContainer, consumer: unknown): NestModuleView[] {
  if (typeof consumer !== 'function') return [];
  const declares = (wrappers: ReadonlyMap<unknown, { readonly metatype?: unknown }>): boolean =>
    [...wrappers].some(([token, wrapper]) => token === consumer || wrapper.metatype === consumer);
  return modulesOf(container).filter((m) => declares(m.controllers) || declares(m.providers));
}

function unregistered(agent: AgentClass, inquirer: unknown, container: ModulesContainer): never {
  const name = nameOf(agent);
  const consumer = (inquirer as { constructor?: unknown } | null | undefined)?.constructor;
  const consumerName =
    typeof consumer === 'function' && consumer !== Object ? nameOf(consumer) : undefined;
  const owners =
    consumerName === undefined ? [] : ownersOf(container, consumer).map((m) => nameOf(m.metatype));
  const module = owners.length > 0 ? owners.join(', ') : undefined;
  const where = module ?? 'the module that injects it';
  throw nestError(
    `${consumerName ?? 'a provider'}${module === undefined ? '' : ` (in ${module})`} injects ${name} with @InjectAgent, but ${where} does not register it: add GolemModule.forFeature([${name}]) to the imports of ${where}, or import the module that does (forFeature exports the agent to its importer)`,
    { reason: 'unregistered-agent', agent: name, ...(module !== undefined && { module }) },
  );
}

/**
 * The global module that turns Nest's "can't resolve dependencies" for an `@InjectAgent` whose
 * agent no reachable `forFeature` registers into an `unregistered-agent` `golem/nestjs`
 * `ConfigError` naming the module and the fix. Each provider is transient, so it is built only when
 * something actually injects it, knowing who (`INQUIRER`); a registered agent is always found first
 * (the importing module's own imports come before global modules). The provider list is read when
 * Nest scans the application, after every `@InjectAgent` has run.
 */
export function diagnosticsModule(): DynamicModule {
  const module = class GolemDiagnosticsModule {};
  const providers = (): Provider[] =>
    injectedAgents().map((agent) => ({
      provide: injectionTokenOf(agent),
      scope: Scope.TRANSIENT,
      inject: [INQUIRER, ModulesContainer],
      useFactory: (inquirer: unknown, container: ModulesContainer) =>
        unregistered(agent, inquirer, container),
    }));
  return {
    module,
    global: true,
    get providers() {
      return providers();
    },
    get exports() {
      return injectedAgents().map((agent) => injectionTokenOf(agent));
    },
  };
}
