import { Container, type ContainerModule } from 'inversify';
import { missingMetadataError } from './constructor-metadata';
import { golemModule, type GolemModuleOptions } from './golem-module';

/** Options of {@link createGolemContainer}: `golemModule`'s, plus the container's own. */
export interface GolemContainerOptions extends GolemModuleOptions {
  /** More modules to load after `golemModule` (your services, controllers, feature modules). */
  modules?: readonly ContainerModule[];
  /** The parent container (bindings not found here are looked up there). */
  parent?: Container;
  /**
   * Resolve unbound `@injectable()` classes by themselves (inversify's `autobind`); default
   * `false`, so every service is bound explicitly, as in a NestJS module.
   */
  autobind?: boolean;
}

/**
 * A new inversify `Container` with `golemModule(options)` and `options.modules` loaded: the
 * one-line setup of an app, a test or a script. A service bound in `modules` whose constructor
 * parameters cannot be injected (no `@inject`, and no decorator metadata — tsx, esbuild, Vite ≤ 7)
 * is a `missing-metadata` container `ConfigError` naming it and the fix.
 *
 * ```ts
 * const container = createGolemContainer({ defaultModel: 'test', agents: [WeatherAgent] });
 * const agent = resolveAgent(container, WeatherAgent);
 * ```
 */
export function createGolemContainer(options: GolemContainerOptions = {}): Container {
  const { modules = [], parent, autobind = false, ...moduleOptions } = options;
  const container = new Container({
    ...(parent !== undefined && { parent }),
    ...(autobind && { autobind: true as const }),
  });
  try {
    container.load(golemModule(moduleOptions), ...modules);
  } catch (error) {
    throw missingMetadataError(error) ?? error;
  }
  return container;
}
