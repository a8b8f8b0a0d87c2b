import {
  Scope,
  type DynamicModule,
  type FactoryProvider,
  type InjectionToken,
  type Provider,
} from '@nestjs/common';
import { ContextIdFactory, ModulesContainer, REQUEST, type ContextId } from '@nestjs/core';
import type { Model, RunObserver, RunStore, Tool, ConfigError } from '../src/core/index';
import {
  agentFromClass,
  isWorkflowClass,
  middlewareOf,
  resolveMiddleware,
  type WorkflowClass,
} from '../decorators/index';
import { GolemAppMiddleware } from './middleware';
import { nestError, nameOf } from './errors';
import { FeatureHost, findHost } from './feature-host';
import { GolemModels } from './model-registry';
import { GolemObservability } from './observability';
import { atLeast, nestCoreVersion } from './peer';
import { configuredStore, getRunStoreToken } from './run-store';
import { getMemoryToken, memoryForAgent } from './memory';
import type { AgentMemory } from '../src/memory/index';
import {
  checkModelName,
  definitionOf,
  getAgentToken,
  getModelToken,
  injectionTokenOf,
  type AgentClass,
} from './tokens';
import { isRecord } from '../src/core/kit/guards';
import { workflowProviders } from './workflow-feature';
import { handoffsForAgent } from './handoffs';

/**
 * How long the agent class instance (and its engine agent) lives: `'singleton'` (default; built
 * once at startup, shared by every request — keep per-request data in the run's `deps`) or
 * `'request'` (built per HTTP request, in Nest's request context, so its constructor can inject
 * `REQUEST`-scoped providers; whatever injects it becomes request-scoped too).
 */
export type AgentScope = 'singleton' | 'request';

/**
 * Extra tools for an agent built by Nest: `inject` lists providers (resolved in the feature
 * module's context, like a factory provider's) and `useFactory` returns the tools —
 * `{ inject: [MCP_CLIENT], useFactory: (client: McpClient) => client.tools() }`.
 */
export interface AgentToolsFactory {
  /** What `useFactory` is called with, in order. */
  readonly inject?: readonly InjectionToken[];
  /** Returns the tools (may be async). */
  readonly useFactory: (
    ...args: never[]
  ) => readonly Tool<never>[] | Promise<readonly Tool<never>[]>;
}

/** Extra tools for an agent: a list, or a factory of the feature module's providers. */
export type AgentTools = readonly Tool<never>[] | AgentToolsFactory;

/** One agent class registered with options (see {@link GolemModule.forFeature}). */
export interface AgentRegistration {
  /** The `@Agent` class. */
  readonly agent: AgentClass;
  /** The model name to use instead of the class's `@Agent({ model })`. */
  readonly model?: string;
  /** The instance's scope; default the forFeature options' `scope`, else `'singleton'`. */
  readonly scope?: AgentScope;
  /** Observes every run of this agent (after the forFeature options' `onEvent`). */
  readonly onEvent?: RunObserver;
  /** More tools after the class's own — MCP tools, common tools (see {@link AgentTools}). */
  readonly tools?: AgentTools;
}

/**
 * What `forFeature` accepts per entry: an agent class, an agent class with options, or a
 * `@Workflow` class.
 */
export type AgentEntry = AgentClass | AgentRegistration | WorkflowClass;

/** Options shared by every agent of one `forFeature` call. */
export interface GolemFeatureOptions {
  /** Default scope of the listed agents; default `'singleton'`. */
  readonly scope?: AgentScope;
  /** Observes every run of every listed agent. */
  readonly onEvent?: RunObserver;
}

interface Entry {
  readonly target: AgentClass;
  readonly name: string;
  readonly model: string;
  readonly scope: AgentScope;
  readonly observers: readonly RunObserver[];
  readonly tools: AgentTools | undefined;
}

const WHERE = 'GolemModule.forFeature';

function invalid(message: string, agent?: string): ConfigError {
  return nestError(`${WHERE}: ${message}`, {
    reason: 'invalid-options',
    ...(agent !== undefined && { agent }),
  });
}

function checkScope(scope: unknown, agent?: string): AgentScope | undefined {
  if (scope === undefined || scope === 'singleton' || scope === 'request') return scope;
  throw invalid(`scope must be 'singleton' or 'request', got ${JSON.stringify(scope)}`, agent);
}

function checkEntry(entry: unknown, index: number, defaults: GolemFeatureOptions): Entry {
  // An undefined (or null) entry is a class a circular import has not defined yet: say so.
  if (entry === undefined || entry === null) definitionOf(entry, `${WHERE} (agents[${index}])`);
  const registration: Partial<AgentRegistration> =
    typeof entry === 'function' ? { agent: entry as AgentClass } : isRecord(entry) ? entry : {};
  if (typeof entry !== 'function' && !isRecord(entry))
    throw invalid(`agents[${index}] must be an @Agent class or { agent, … }, got ${nameOf(entry)}`);
  const target = registration.agent as AgentClass;
  const definition = definitionOf(target, WHERE);
  const name = definition.className;
  if (registration.model !== undefined) checkModelName(registration.model, WHERE);
  const { tools, onEvent } = registration;
  if (
    tools !== undefined &&
    !Array.isArray(tools) &&
    !(
      isRecord(tools) &&
      typeof tools.useFactory === 'function' &&
      (tools.inject === undefined || Array.isArray(tools.inject))
    )
  )
    throw invalid(
      `the tools of ${name} must be an array of tools or { inject?, useFactory }`,
      name,
    );
  if (onEvent !== undefined && typeof onEvent !== 'function')
    throw invalid(`onEvent of ${name} must be a function`, name);
  return {
    target,
    name,
    model: registration.model ?? definition.model,
    scope: checkScope(registration.scope, name) ?? checkScope(defaults.scope) ?? 'singleton',
    observers: [defaults.onEvent, onEvent].filter((o): o is RunObserver => o !== undefined),
    tools,
  };
}

function missingRoot(module: string): ConfigError {
  return nestError(
    `${module} imports GolemModule.forFeature, but no module imports GolemModule.forRoot (or forRootAsync); add GolemModule.forRoot({ defaultModel: 'test' }) to the imports of your AppModule (it is global)`,
    { reason: 'missing-root', module },
  );
}

/** The root module's observability, optional (a feature without forRoot fails on its model first). */
const OBSERVABILITY = { token: GolemObservability, optional: true } as const;
type Seen = GolemObservability | undefined;
/** The root module's run store (or its stand-in), optional like the observability. */
const STORE = { token: getRunStoreToken(), optional: true } as const;
/** The root module's memory (`null` without one), optional like the store. */
const MEMORY = { token: getMemoryToken(), optional: true } as const;
/** The app-wide middleware (optional like the store). */
const MIDDLEWARE = { token: GolemAppMiddleware, optional: true } as const;

/** Contexts made for requests registered through `ModuleRef` (they carry no context id). */
const madeContexts = new WeakMap<object, ContextId>();

/**
 * The Nest context to build a request-scoped agent in. An HTTP request carries the id of its
 * context. A request registered by hand (`moduleRef.registerRequestByContextId(request,
 * ContextIdFactory.create())`) carries none and its context id cannot be read back, so the agent
 * gets a context of its own — one per request object — with the same request registered in it:
 * its `REQUEST`-scoped providers see that request. Resolved with no request at all, the agent
 * still gets a context of its own (never the singletons').
 */
function contextOf(request: object | null | undefined, host: FeatureHost): ContextId {
  if (request === undefined || request === null) return ContextIdFactory.create();
  const carried = ContextIdFactory.getByRequest(request);
  // Without a carried id, every call makes a new one.
  if (carried === ContextIdFactory.getByRequest(request)) return carried;
  let made = madeContexts.get(request);
  if (made === undefined) {
    made = carried;
    madeContexts.set(request, made);
    host.ref.registerRequestByContextId(request, made);
  }
  return made;
}

async function buildAgent(
  entry: Entry,
  host: FeatureHost,
  model: Model,
  seen: Seen,
  runStore: RunStore | undefined,
  appMemory: AgentMemory | null | undefined,
  app: GolemAppMiddleware | undefined,
  registered: ReadonlySet<unknown>,
  contextId?: ContextId,
): Promise<unknown> {
  const instance = await host.create(entry.target, contextId);
  const handoffs = handoffsForAgent(entry.target, entry.name, registered, host);
  // The class's own middleware classes are created like the agent: in the feature module's context.
  const own = await resolveMiddleware(
    middlewareOf(entry.target),
    (middlewareClass) => host.create(middlewareClass as unknown as AgentClass, contextId),
    entry.name,
  );
  const middleware = [...(app?.list ?? []), ...own];
  const { tools } = entry;
  const extra = isToolsFactory(tools)
    ? await (tools.useFactory as (...args: unknown[]) => unknown)(
        ...(await host.inject(tools.inject ?? [])),
      )
    : tools;
  if (extra !== undefined && !Array.isArray(extra))
    throw invalid(`the tools function of ${entry.name} must return an array of tools`, entry.name);
  const { observers } = entry;
  const store = configuredStore(runStore);
  const memory = memoryForAgent(appMemory, entry.target);
  return agentFromClass(instance, {
    model,
    middleware,
    ...(store !== undefined && { store }),
    ...(memory !== undefined && { memory }),
    ...(seen?.instrumentation !== undefined && { instrumentation: seen.instrumentation }),
    ...(seen?.prices !== undefined && { prices: seen.prices }),
    ...(extra !== undefined && { tools: extra as readonly Tool[] }),
    ...(handoffs !== undefined && { handoffs }),
    ...(observers.length > 0 && {
      onEvent: (event) => {
        for (const observer of observers) observer(event);
      },
    }),
  });
}

function isToolsFactory(tools: AgentTools | undefined): tools is AgentToolsFactory {
  return tools !== undefined && !Array.isArray(tools);
}

let features = 0;

/** The dynamic module of one `GolemModule.forFeature(agents, options)` call. */
export function featureModule(
  agents: readonly AgentEntry[],
  options: GolemFeatureOptions = {},
): DynamicModule {
  if (!Array.isArray(agents) || agents.length === 0)
    throw invalid(
      'give a non-empty array of @Agent classes, e.g. GolemModule.forFeature([WeatherAgent])',
    );
  if (!isRecord(options)) throw invalid('options must be an object');
  checkScope(options.scope);
  const listed: readonly unknown[] = agents;
  const workflows = listed.filter((entry): entry is WorkflowClass => isWorkflowClass(entry));
  const entries = listed
    .map((entry, index) => ({ entry, index }))
    .filter(({ entry }) => !isWorkflowClass(entry))
    .map(({ entry, index }) => checkEntry(entry, index, options));
  const names = [...entries.map((e) => e.name), ...workflows.map((w) => nameOf(w))];
  const registered = new Set<unknown>(entries.map((e) => e.target));
  const perRequest = entries.find((e) => e.scope === 'request');
  const core = nestCoreVersion();
  if (perRequest !== undefined && core !== undefined && !atLeast(core, 10, 3)) {
    throw nestError(
      `${WHERE}: scope 'request' (${perRequest.name}) needs @nestjs/core 10.3 or newer, found ${core} (older releases hand a request-scoped agent unfinished REQUEST-scoped providers): run \`npm install @nestjs/core@^10.3 @nestjs/common@^10.3\`, or keep the agent a singleton and pass per-request data in deps`,
      {
        reason: 'missing-peer',
        agent: perRequest.name,
        entryPoint: 'golem/nestjs',
        packages: ['@nestjs/core', '@nestjs/common'],
        command: 'npm install @nestjs/core@^10.3 @nestjs/common@^10.3',
      },
    );
  }
  const seen = new Set<AgentClass>();
  for (const entry of entries) {
    if (seen.has(entry.target)) throw invalid(`${entry.name} is listed twice`, entry.name);
    seen.add(entry.target);
  }
  // One module class per call: Nest identifies it, and its importer is the agents' host.
  const feature = class GolemFeatureModule {};
  Object.defineProperty(feature, 'name', {
    value: `GolemFeatureModule${++features === 1 ? '' : features}`,
  });
  const hostToken = Symbol(`GolemFeatureHost(${names.join(', ')})`);
  const providers: Provider[] = [
    {
      provide: hostToken,
      inject: [ModulesContainer],
      useFactory: (container: ModulesContainer) => findHost(container, feature, names),
    },
  ];
  for (const model of new Set(entries.map((e) => e.model))) {
    const users = entries
      .filter((e) => e.model === model)
      .map((e) => e.name)
      .join(', ');
    providers.push({
      provide: getModelToken(model),
      inject: [{ token: GolemModels, optional: true }, hostToken],
      useFactory: (models: GolemModels | undefined, host: FeatureHost) => {
        if (models === undefined) throw missingRoot(host.moduleName);
        return models.modelFor(model, { agent: users, module: host.moduleName });
      },
    });
  }
  for (const entry of entries) {
    const token = getAgentToken(entry.target);
    const provider: FactoryProvider =
      entry.scope === 'request'
        ? {
            provide: token,
            scope: Scope.REQUEST,
            inject: [
              hostToken,
              getModelToken(entry.model),
              OBSERVABILITY,
              STORE,
              MEMORY,
              MIDDLEWARE,
              REQUEST,
            ],
            useFactory: (
              host: FeatureHost,
              model: Model,
              seen: Seen,
              store: RunStore | undefined,
              memory: AgentMemory | null | undefined,
              app: GolemAppMiddleware | undefined,
              request: object | null | undefined,
            ) =>
              buildAgent(
                entry,
                host,
                model,
                seen,
                store,
                memory,
                app,
                registered,
                contextOf(request, host),
              ),
          }
        : {
            provide: token,
            inject: [
              hostToken,
              getModelToken(entry.model),
              OBSERVABILITY,
              STORE,
              MEMORY,
              MIDDLEWARE,
            ],
            useFactory: (
              host: FeatureHost,
              model: Model,
              seen: Seen,
              store: RunStore | undefined,
              memory: AgentMemory | null | undefined,
              app: GolemAppMiddleware | undefined,
            ) => buildAgent(entry, host, model, seen, store, memory, app, registered),
          };
    providers.push(provider, { provide: injectionTokenOf(entry.target), useExisting: token });
  }
  const flows = workflowProviders(workflows, hostToken);
  providers.push(...flows.providers);
  return {
    module: feature,
    providers,
    exports: [
      ...entries.flatMap((e) => [getAgentToken(e.target), injectionTokenOf(e.target)]),
      ...flows.exports,
    ],
  };
}
