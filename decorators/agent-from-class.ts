import { Agent as EngineAgent, ConfigError, decodeJSON, defineTool } from '../src/core/index';
import type {
  AgentConfig,
  Backoff,
  Middleware,
  Model,
  PriceTable,
  RunContext,
  RunInstrumentation,
  RunObserver,
  RunStore,
  Sleep,
  Tool,
  ToolContext,
} from '../src/core/index';
import type { AgentDefinition, ToolDefinitionInfo } from './compile/definition';
import { compileAgentClass } from './compile/compile-agent';
import { instructionsText } from './compile/compile-instructions';
import { agentDefinitionError, classNameOf, memberName } from './errors';
import type { DepsOf, OutputOf, PausableOf } from './markers';
import { boundGuardrails } from './bound-guardrails';
import { handoffsOf } from './handoff-decorator';
import { middlewareOf, resolveMiddlewareSync } from './use-middleware-decorator';

/** What `agentFromClass` needs besides the instance: the model object and per-instance hooks. */
export interface AgentFromClassOptions<Deps> {
  /** The model this agent calls (the container resolves `@Agent({ model })` to one). */
  model: Model;
  /** More tools, after the class's own (e.g. MCP or common tools). */
  tools?: readonly Tool<Deps>[];
  /** Observes every run of this agent. */
  onEvent?: RunObserver;
  /** How retry waits happen (inject one in tests). */
  sleep?: Sleep;
  /** Wait before retrying a failed model attempt. */
  retryBackoff?: Backoff;
  /** Checkpoint every run in this store (durable runs); the container binds one with `golemModule({ store })`. */
  store?: RunStore;
  /** The name stored with the agent's runs and reported to tracing; default the class name. */
  name?: string;
  /** Traces every run (e.g. `otelInstrumentation()` from `golem/otel`); the container binds one with `golemModule({ instrumentation })`. */
  instrumentation?: RunInstrumentation;
  /** Prices every response (`priceTable({...})`, `genaiPrices()`): `result.cost`, `usageLimit.cost`. */
  prices?: PriceTable;
  /**
   * The agent's memory (`new Memory({...})` from `golem/memory`); the container and the Nest module
   * pass the app's, with the class's `@WorkingMemory` DTO as its working memory.
   */
  memory?: AgentConfig<Deps, unknown>['memory'];
  /**
   * The agent's whole middleware list, first outermost, instead of the class's `@UseMiddleware`
   * objects. The container and the Nest module pass the app-wide middleware followed by the
   * class's own (its classes resolved with injection). Without it, a `@UseMiddleware` class is a
   * `ConfigError`: resolve it yourself — `middleware: [...middlewareOf(Cls)]` with instances.
   */
  middleware?: readonly Middleware[];
  /**
   * The agent's handoffs (engine `handoffs`). The container and the Nest module build them from
   * the class's `@Handoff` declarations; without it, a class with `@Handoff` is a `ConfigError`.
   */
  handoffs?: AgentConfig<Deps, unknown>['handoffs'];
}

type Method = (this: object, ...args: unknown[]) => unknown;

/**
 * Turns a decorated instance into an engine `Agent`: its `@Tool` methods become tools that
 * validate their arguments into DTO instances and run on `instance` (`this` bound), its
 * `@Instructions` become the instructions, its `@Output` the schema and the validating decoder.
 * Typed from the class's markers: `Agent<DepsOf<T>, OutputOf<T>, PausableOf<T>>`. Throws
 * a `ConfigError` (component `decorators`) for any declaration mistake.
 *
 * ```ts
 * const agent = agentFromClass(new WeatherAgent(api), { model });
 * const result = await agent.run('Weather in Lagos?', { deps: user });
 * result.output; // Forecast
 * ```
 */
export function agentFromClass<T extends object>(
  instance: T,
  options: AgentFromClassOptions<DepsOf<T>>,
): EngineAgent<DepsOf<T>, OutputOf<T>, PausableOf<T>> {
  const value: unknown = instance;
  if (typeof value !== 'object' || value === null) {
    throw agentDefinitionError(
      'not-an-agent',
      typeof value === 'function'
        ? 'agentFromClass got the class, not an instance'
        : `agentFromClass got ${value === null ? 'null' : typeof value}`,
      {
        className: classNameOf(value),
        hint: 'pass an instance: agentFromClass(new WeatherAgent(…), { model })',
      },
    );
  }
  const definition = compileAgentClass(instance.constructor);
  type Deps = DepsOf<T>;
  const tools = definition.tools.map((tool) => boundTool<Deps>(instance, definition, tool));
  const instructions = definition.instructions.map((piece) =>
    piece.kind === 'text'
      ? piece.text
      : boundInstructions<Deps>(instance, definition, piece.member),
  );
  const { output } = definition;
  const middleware = options.middleware ?? ownMiddleware(definition);
  const guardrails = boundGuardrails<Deps>(instance, definition, definition.options.guardrails);
  if (options.handoffs === undefined && handoffsOf(definition.target).length > 0)
    throw agentDefinitionError(
      'invalid-option',
      '@Handoff names agent classes, which agentFromClass cannot resolve',
      {
        className: definition.className,
        hint: 'bind the agents with golemModule (golem/container) or GolemModule.forFeature (golem/nestjs), or pass agentFromClass(instance, { handoffs: [...] }) with agents',
      },
    );
  const config: AgentConfig<Deps, unknown> = {
    ...definition.options,
    ...(guardrails !== undefined && { guardrails }),
    model: options.model,
    tools: [...tools, ...(options.tools ?? [])],
    ...(instructions.length > 0 && { instructions }),
    ...(output !== undefined && { output: decodeJSON((value) => output.parse(value)) }),
    ...(output?.mode === 'native' && { outputSchema: output.schema }),
    ...(output?.mode === 'tool' && {
      outputTool: {
        name: output.name,
        description: output.description ?? '',
        schema: output.schema,
      },
    }),
    ...(options.onEvent !== undefined && { onEvent: options.onEvent }),
    ...(options.sleep !== undefined && { sleep: options.sleep }),
    ...(options.retryBackoff !== undefined && { retryBackoff: options.retryBackoff }),
    ...(options.store !== undefined && { store: options.store }),
    ...(options.instrumentation !== undefined && { instrumentation: options.instrumentation }),
    ...(options.prices !== undefined && { prices: options.prices }),
    ...(options.memory !== undefined && { memory: options.memory }),
    ...(middleware.length > 0 && { middleware }),
    ...(options.handoffs !== undefined && { handoffs: options.handoffs }),
    name: options.name ?? definition.className,
  };
  try {
    return new EngineAgent(config) as unknown as EngineAgent<DepsOf<T>, OutputOf<T>, PausableOf<T>>;
  } catch (cause) {
    if (!ConfigError.is(cause, 'agent')) throw cause;
    throw agentDefinitionError('invalid-option', cause.message, {
      className: definition.className,
      hint: 'check the model and the extra tools given to agentFromClass',
      cause,
    });
  }
}

/** The class's `@UseMiddleware` objects; a class entry needs the container or the Nest module. */
function ownMiddleware(definition: AgentDefinition): readonly Middleware[] {
  return resolveMiddlewareSync(
    middlewareOf(definition.target),
    (middlewareClass) => {
      throw agentDefinitionError(
        'invalid-option',
        `@UseMiddleware lists the class ${middlewareClass.name || '(anonymous)'}, which agentFromClass cannot create`,
        {
          className: definition.className,
          hint: 'bind the agent with golemModule (golem/container) or GolemModule.forFeature (golem/nestjs), or pass agentFromClass(instance, { middleware: [...] }) with instances',
        },
      );
    },
    definition.className,
  );
}

function methodOn(instance: object, definition: AgentDefinition, member: string | symbol): Method {
  const method: unknown = (instance as Record<string | symbol, unknown>)[member];
  if (typeof method !== 'function') {
    throw agentDefinitionError(
      'not-a-method',
      `the instance's ${memberName(member)} is ${typeof method}, not the decorated method`,
      {
        className: definition.className,
        member: memberName(member),
        hint: 'do not shadow decorated methods with instance properties',
      },
    );
  }
  return method as Method;
}

/** One `@Tool` method of `instance` as a validated engine tool. Internal (see `classTools`). */
export function boundTool<Deps>(
  instance: object,
  definition: AgentDefinition,
  tool: ToolDefinitionInfo,
): Tool<Deps> {
  const method = methodOn(instance, definition, tool.member);
  return defineTool<Deps, object>({
    name: tool.name,
    description: tool.description,
    schema: tool.schema,
    parse: tool.parse,
    // defineTool renders the return value (strings as-is, other values as JSON), like any tool.
    execute: (args, ctx: ToolContext<Deps>) => method.call(instance, args, ctx),
    ...(tool.timeout !== undefined && { timeout: tool.timeout }),
    ...(tool.maxRetries !== undefined && { maxRetries: tool.maxRetries }),
    ...(tool.sequential !== undefined && { sequential: tool.sequential }),
    ...(tool.idempotent !== undefined && { idempotent: tool.idempotent }),
    ...(tool.approval !== undefined && { approval: tool.approval as Tool<Deps>['approval'] }),
  });
}

function boundInstructions<Deps>(
  instance: object,
  definition: AgentDefinition,
  member: string | symbol,
): (ctx: RunContext<Deps>) => Promise<string> {
  const method = methodOn(instance, definition, member);
  return async (ctx: RunContext<Deps>) =>
    instructionsText(await method.call(instance, ctx), definition.className, member);
}
