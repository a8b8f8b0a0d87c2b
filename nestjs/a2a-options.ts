import type { FactoryProvider, ModuleMetadata } from '@nestjs/common';
import type { A2AServerOptions, ServableAgent } from '../src/a2a/index';
import type { ConfigError } from '../src/core/index';
import { isRecord } from '../src/core/kit/guards';
import { nestError, nameOf } from './errors';
import { definitionOf, type AgentClass } from './tokens';

/**
 * An agent `A2AModule` serves: an `@Agent` class registered with `GolemModule.forFeature`
 * (anywhere in the application; Nest builds it), or an engine `Agent`.
 */
export type A2AModuleAgent = AgentClass | ServableAgent;

/**
 * Options of `A2AModule.forRoot`: those of `createA2AServer` from `golem/a2a` (`url` — the public
 * URL of the endpoint, the card's URL — `card`, `store`, `authenticate`, `maxBodyBytes`,
 * `allowedOrigins`, `maxTasks`, `onError`), with `agents` that may name `@Agent` classes, and the
 * route to serve.
 */
export interface A2AModuleOptions extends Omit<A2AServerOptions, 'agents'> {
  /**
   * The agent to serve, or several by key (each served at `<path>/<key>`, its card at
   * `<path>/<key>/.well-known/agent-card.json`): `@Agent` classes or engine `Agent`s.
   */
  agents: A2AModuleAgent | Readonly<Record<string, A2AModuleAgent>>;
  /**
   * The Nest route of the JSON-RPC endpoint (under the global prefix, if any); default `'a2a'`.
   * The card is served at `<path>/.well-known/agent-card.json` and, for a single agent, also at
   * `/.well-known/agent-card.json`. It may differ from the path of `url` (a proxy in front).
   */
  path?: string;
}

/** Options of `A2AModule.forRootAsync`: the route, and a Nest factory provider of the rest. */
export interface A2AModuleAsyncOptions {
  /** The route (see {@link A2AModuleOptions.path}): fixed when the module is defined. */
  path?: string;
  /** Modules whose exports the factory injects (e.g. `ConfigModule`). */
  imports?: ModuleMetadata['imports'];
  /** What the factory is called with, in order (e.g. `[ConfigService]`). */
  inject?: FactoryProvider['inject'];
  /** Builds the options (without `path`); may be async. */
  useFactory: (
    ...args: never[]
  ) => Omit<A2AModuleOptions, 'path'> | Promise<Omit<A2AModuleOptions, 'path'>>;
}

/** Checked options: the route as path segments joined by '/' ('' for the root). */
export interface CheckedA2AOptions extends A2AModuleOptions {
  readonly route: string;
}

function invalid(where: string, message: string): ConfigError {
  return nestError(`${where}: ${message}`, { reason: 'invalid-options' });
}

/** The route without its slashes; throws unless it is plain path segments (no parameters). */
export function checkPath(path: unknown, where: string): string {
  if (path === undefined) return 'a2a';
  if (typeof path !== 'string' || !/^[A-Za-z0-9._~/-]*$/.test(path) || path.includes('//'))
    throw invalid(
      where,
      `path must be a plain route such as 'a2a' or 'agents/a2a' (letters, digits, . _ ~ - and /), got ${JSON.stringify(path)}`,
    );
  return path.replace(/^\/+|\/+$/g, '');
}

function isServable(value: unknown): value is ServableAgent {
  return isRecord(value) && typeof value.run === 'function';
}

function checkAgent(value: unknown, where: string, label: string): void {
  if (typeof value === 'function') {
    definitionOf(value, where);
    return;
  }
  if (!isServable(value))
    throw invalid(where, `${label} must be an @Agent class or a golem Agent, got ${nameOf(value)}`);
}

/** Checks the options of `forRoot` (or what `forRootAsync`'s factory returns). */
export function checkA2AOptions(
  options: unknown,
  where: string,
  path?: unknown,
): CheckedA2AOptions {
  if (!isRecord(options))
    throw invalid(
      where,
      "options must be an object: { agents: WeatherAgent, url: 'https://…/a2a' }",
    );
  const route = checkPath(path ?? options.path, where);
  const { agents } = options;
  if (typeof agents === 'function' || isServable(agents)) checkAgent(agents, where, 'agents');
  else if (isRecord(agents) && Object.keys(agents).length > 0)
    for (const [key, agent] of Object.entries(agents)) checkAgent(agent, where, `agents.${key}`);
  else
    throw invalid(
      where,
      'agents must be an @Agent class, a golem Agent, or a non-empty record of them by key',
    );
  if (typeof options.url !== 'string')
    throw invalid(
      where,
      "url must be the endpoint's public absolute URL, e.g. 'https://agents.example.com/a2a'",
    );
  return { ...(options as unknown as A2AModuleOptions), route };
}
