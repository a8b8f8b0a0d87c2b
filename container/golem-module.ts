import { ContainerModule } from 'inversify';
import { isRecord } from '../src/core/kit/guards';
import type { PriceTable, RunInstrumentation, RunStore, ConfigError } from '../src/core/index';
import { bindAgent, type AgentScope } from './bind-agent';
import { bindWorkflow } from './bind-workflow';
import { bindWorkflowRunner, type ContainerRunnerOptions } from './workflow-runner';
import { workflowDefinitionOf } from './workflow-tokens';
import { MEMORY } from './memory';
import { MIDDLEWARE } from './middleware';
import { isMiddlewareObject, type WorkflowClass } from '../decorators/index';
import type { Middleware } from '../src/core/index';
import type { Memory } from '../src/memory/index';
import { containerError, containerFail } from './errors';
import { checkedSources, modelStringSettings } from '../src/providers/resolve/wiring';
import { applyChecked } from './model-bindings';
import type { ModelFactory, ModelSource } from './model-source';
import { containerModelStrings, MODEL_STRINGS, type ModelStringSettings } from './model-strings';
import {
  definitionOf,
  INSTRUMENTATION,
  modelToken,
  PRICES,
  RUN_STORE,
  type AgentClass,
} from './tokens';

/** Options of {@link golemModule}. */
export interface GolemModuleOptions extends ModelStringSettings {
  /**
   * Models by binding name: `{ default: 'openai:gpt-4o-mini', fast: (ctx) => anthropic({…}),
   * test: new TestModel() }` (see `ModelSource`). Agents pick one with `@Agent({ model })`.
   */
  models?: Readonly<Record<string, ModelSource>>;
  /**
   * The `default` binding (shorthand for `models.default`), e.g.
   * `detectDefaultModel(process.env)`: the configured provider, or `test` offline.
   */
  defaultModel?: ModelSource;
  /** Agent classes to bind (`bindAgent` each, in `agentScope`). */
  agents?: readonly AgentClass[];
  /** Scope of the listed agents' instances; default `Singleton`. */
  agentScope?: AgentScope;
  /**
   * The run store every agent of the container checkpoints its runs in (bound to `RUN_STORE`),
   * e.g. `sqliteStore({ path: 'runs.db' })`: runs survive crashes, `resumeRun(runId)` continues
   * them.
   */
  store?: RunStore;
  /**
   * Traces every agent's runs (bound to `INSTRUMENTATION`), e.g. `otelInstrumentation()` from
   * `golem/otel`: OpenTelemetry GenAI spans and metrics for the whole app, one option.
   */
  instrumentation?: RunInstrumentation;
  /** Prices every agent's responses (bound to `PRICES`): `priceTable({...})` or `genaiPrices()`. */
  prices?: PriceTable;
  /**
   * The memory every agent of the container runs with (bound to `MEMORY`): `new Memory({ … })`
   * from `golem/memory` (working memory, semantic recall). An agent class with
   * `@WorkingMemory(Dto)` gets it with the DTO as its working memory. Runs need an `owner`.
   */
  memory?: Memory<object>;
  /**
   * App-wide middleware (bound to `MIDDLEWARE`, in order): runs on every agent of the container,
   * outside each class's own `@UseMiddleware` — e.g. `[logRequests(), redactPii()]` from
   * `golem/middleware`. For a middleware class with injection, bind it yourself:
   * `container.bind(MIDDLEWARE).to(AuditMiddleware)`.
   */
  middleware?: readonly Middleware[];
  /**
   * `@Workflow` classes to bind (`bindWorkflow` each): singletons with constructor injection,
   * resolved as `WorkflowDefinition`s (`resolveWorkflow`, `workflowOf`) and run by the
   * container's `WORKFLOW_RUNNER` over `store`.
   */
  workflows?: readonly WorkflowClass[];
  /** Options of the container's `WORKFLOW_RUNNER` (`owner`, `leaseMs`, `onEvent`, …). */
  workflowRunner?: ContainerRunnerOptions;
}

function invalid(message: string): ConfigError {
  return containerError(`golemModule: ${message}`, { reason: 'invalid-options' });
}

function checkOptions(options: unknown): GolemModuleOptions {
  if (!isRecord(options)) throw invalid('options must be an object');
  const { models, agents, env, testModel, resolveModelStrings, store, instrumentation, prices } =
    options;
  if (
    instrumentation !== undefined &&
    !(isRecord(instrumentation) && typeof instrumentation.startRun === 'function')
  )
    throw invalid(
      'instrumentation must have startRun(info), e.g. otelInstrumentation() from golem/otel',
    );
  if (prices !== undefined && !(isRecord(prices) && typeof prices.cost === 'function'))
    throw invalid('prices must be a price table, e.g. priceTable({ ... }) from golem');
  const { memory } = options;
  if (
    memory !== undefined &&
    !(
      isRecord(memory) &&
      typeof memory.recall === 'function' &&
      typeof memory.withWorkingMemory === 'function'
    )
  )
    throw invalid('memory must be a Memory from golem/memory, e.g. new Memory({ workingMemory })');
  const { middleware } = options;
  if (middleware !== undefined) {
    if (!Array.isArray(middleware))
      throw invalid('middleware must be an array of middleware objects, e.g. [logRequests()]');
    (middleware as unknown[]).forEach((entry, index) => {
      if (!isMiddlewareObject(entry))
        throw invalid(
          `middleware[${index}] must be a middleware object with request, generate, stream or tool; bind a middleware class with container.bind(MIDDLEWARE).to(Class)`,
        );
    });
  }
  if (store !== undefined && !isRecord(store))
    throw invalid('store must be a run store, e.g. sqliteStore({ path }) from golem/stores/sqlite');
  if (models !== undefined && !isRecord(models))
    throw invalid("models must be an object of sources by name, e.g. { default: 'test' }");
  if (agents !== undefined && !Array.isArray(agents))
    throw invalid('agents must be an array of agent classes');
  const { workflows, workflowRunner } = options;
  if (workflows !== undefined && !Array.isArray(workflows))
    throw invalid('workflows must be an array of @Workflow classes');
  if (workflowRunner !== undefined && !isRecord(workflowRunner))
    throw invalid('workflowRunner must be an object of runner options, e.g. { onEvent }');
  if (env !== undefined && !isRecord(env))
    throw invalid('env must be an object of variables (e.g. process.env)');
  if (testModel !== undefined && typeof testModel !== 'function')
    throw invalid('testModel must be a function (name) => model');
  if (resolveModelStrings !== undefined && typeof resolveModelStrings !== 'boolean')
    throw invalid('resolveModelStrings must be true or false');
  return options;
}

/**
 * The container module of an app built on Golem: binds each model name (instances as they are;
 * factories and model strings lazily, once) and the listed agent classes, and gives the
 * container its model-string resolver (`resolveModel` with `env`, `testModel`, `fetch`,
 * `overrides`), the listed workflow classes and the `WORKFLOW_RUNNER` that runs them. Load it
 * once per container. Options are checked here, eagerly; a class without `@Agent` (or
 * `@Workflow`) or an invalid model source is a container `ConfigError`.
 *
 * ```ts
 * const container = new Container();
 * container.load(
 *   golemModule({
 *     defaultModel: detectDefaultModel(process.env), // a provider when a key is set, else test
 *     models: { fast: 'anthropic:claude-haiku-4-5' },
 *     agents: [WeatherAgent],
 *   }),
 * );
 * ```
 */
export function golemModule(options: GolemModuleOptions = {}): ContainerModule {
  const checked = checkOptions(options);
  const sources = checkedSources<ModelFactory>(
    checked.models,
    checked.defaultModel,
    'golemModule',
    containerFail,
  );
  const agents = [...(checked.agents ?? [])];
  for (const agent of agents) definitionOf(agent);
  const workflows = [...(checked.workflows ?? [])];
  for (const workflow of workflows) workflowDefinitionOf(workflow);
  const scope = checked.agentScope;
  const settings = modelStringSettings(checked);
  return new ContainerModule(({ bind }) => {
    bind(MODEL_STRINGS).toConstantValue(containerModelStrings(settings));
    if (checked.store !== undefined) bind<RunStore>(RUN_STORE).toConstantValue(checked.store);
    if (checked.instrumentation !== undefined)
      bind<RunInstrumentation>(INSTRUMENTATION).toConstantValue(checked.instrumentation);
    if (checked.prices !== undefined) bind<PriceTable>(PRICES).toConstantValue(checked.prices);
    if (checked.memory !== undefined) bind<Memory<object>>(MEMORY).toConstantValue(checked.memory);
    for (const entry of checked.middleware ?? [])
      bind<Middleware>(MIDDLEWARE).toConstantValue(entry);
    for (const [name, source] of sources) applyChecked(bind(modelToken(name)), name, source);
    for (const agent of agents) bindAgent({ bind }, agent, scope === undefined ? {} : { scope });
    for (const workflow of workflows) bindWorkflow({ bind }, workflow);
    bindWorkflowRunner({ bind }, checked.workflowRunner);
  });
}
