import type { JsonSchema } from '../kit/json';
import type { ToolSpec } from '../contract/request';
import type { AgentConfig } from './config';
import { resolveObservability } from './observability';
import { hostedToolsConfig } from './hosted-tools';
import { guardrailsConfig } from './guardrails';
import { agentConfigError } from '../engine/errors';
import type { EngineConfig } from '../engine/run-config';
import { DEFAULT_MAX_RETRY_WAIT_MS, defaultBackoff, timerSleep } from '../engine/retry';
import type { Tool } from '../tool/tool';
import { toolSpec } from '../tool/tool';
import { isArrayValue, isRecord } from '../kit/guards';
import { timeoutProblem } from '../kit/timeouts';
import { isStreamingModel } from '../contract/model';
import type { Model } from '../contract/model';
import type { RunStore } from '../durable/port';
import { compactionPlan } from '../engine/compaction-plan';
import { handoffConfig } from './handoffs';
import type { AgentMemory } from './memory-port';
import type { Middleware } from '../engine/middleware';
import { checkMiddleware, isWrappedModel, wrapModel } from '../engine/middleware-chain';

const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/**
 * Validates an agent configuration in the order of spec §2 (first failure wins) and resolves the
 * engine configuration. Throws `ConfigError` naming the field and the fix.
 */
export function resolveConfig<Deps, Output>(config: AgentConfig<Deps, Output>): EngineConfig<Deps> {
  if (!isRecord(config))
    throw agentConfigError('Agent needs a configuration object with at least `model`');
  if (
    !isRecord(config.model) ||
    typeof (config.model as unknown as Record<string, unknown>).generate !== 'function'
  ) {
    throw agentConfigError('Agent needs `model`: an object with generate(request, options)');
  }
  const { model, ...layers } = middlewareConfig(config.model, config.middleware);
  if (config.output !== undefined && typeof (config.output as unknown) !== 'function') {
    throw agentConfigError(
      'Agent `output` must be a decoder function (response, ctx) => output, e.g. decodeJSON()',
    );
  }
  const maxIterations = integer('maxIterations', config.maxIterations, 10, 1);
  const maxAttempts = integer('maxAttempts', config.maxAttempts, 1, 1);
  const outputRetries = integer('outputRetries', config.outputRetries, 0, 0);
  const toolRetries = integer('toolRetries', config.toolRetries, 0, 0);
  const toolTimeout = timeout('toolTimeout', config.toolTimeout);
  const outputSchema =
    config.outputSchema === undefined || config.outputSchema === ''
      ? undefined
      : schema('outputSchema', config.outputSchema);
  if (outputSchema !== undefined && config.outputTool !== undefined) {
    throw agentConfigError(
      'Agent: `outputSchema` and `outputTool` are exclusive; choose native or tool-mode structured output',
    );
  }
  const outputTool =
    config.outputTool === undefined ? undefined : resolveOutputTool(config.outputTool);
  for (const field of [
    'inputTokens',
    'outputTokens',
    'totalTokens',
    'requests',
    'toolCalls',
  ] as const) {
    nonNegative(`usageLimit.${field}`, config.usageLimit?.[field]);
  }
  if (config.retryBackoff !== undefined && typeof config.retryBackoff !== 'function')
    throw agentConfigError('Agent `retryBackoff` must be a function (attempt) => ms');
  if (config.sleep !== undefined && typeof config.sleep !== 'function')
    throw agentConfigError('Agent `sleep` must be a function (ms, signal) => Promise<void>');
  if (config.historyProcessor !== undefined && typeof config.historyProcessor !== 'function')
    throw agentConfigError('Agent `historyProcessor` must be a function');
  timeout('runTimeout', config.runTimeout);
  const turnTimeout = timeout('turnTimeout', config.turnTimeout);
  const maxRetryWait = retryWait(config.maxRetryWait);
  const { prices } = resolveObservability(config);
  const memory = memoryConfig(config.memory);
  const registered = registerTools([
    ...(config.tools ?? []),
    ...((memory?.tools ?? []) as readonly Tool<Deps>[]),
  ]);
  if (config.deferredTools !== true) {
    for (const tool of registered.values()) {
      if (tool.approval !== undefined && tool.approval !== false) {
        throw agentConfigError(
          `Agent: tool "${tool.name}" requires approval, so runs may pause; set \`deferredTools: true\` and resume paused runs with agent.resume()`,
        );
      }
    }
  }
  const advertised = resolveChoice(config.toolChoice, registered);
  if (outputTool !== undefined && registered.has(outputTool.name)) {
    throw agentConfigError(
      `Agent: output tool "${outputTool.name}" has the name of a registered tool; rename one of them`,
    );
  }
  const specs: ToolSpec[] = [...advertised.values()].map((t) => toolSpec(t as Tool<never>));
  const handoffs = handoffConfig<Deps>(
    config.handoffs,
    config.maxHandoffs,
    new Set([...registered.keys(), ...(outputTool === undefined ? [] : [outputTool.name])]),
  );
  if (handoffs.handoffs !== undefined)
    for (const route of handoffs.handoffs.values()) specs.push(route.spec);
  if (outputTool !== undefined) specs.push({ ...outputTool, output: true });
  return {
    model,
    registered,
    advertised,
    specs,
    outputTool,
    outputSchema,
    maxIterations,
    maxAttempts,
    backoff: config.retryBackoff ?? defaultBackoff,
    sleep: config.sleep ?? timerSleep,
    maxRetryWait,
    turnTimeout,
    outputRetries,
    toolRetries,
    toolTimeout,
    parallelToolCalls: config.parallelToolCalls === true,
    usageLimit: config.usageLimit,
    deferredTools: config.deferredTools === true,
    ...handoffs,
    ...layers,
    ...(prices !== undefined && { prices }),
    ...hostedToolsConfig(config.hostedTools),
    ...guardrailsConfig<Deps>(config.guardrails, registered),
    ...(config.compaction !== undefined && {
      compaction: compactionPlan(config.compaction, model),
    }),
  };
}

/**
 * The agent's model with its `middleware` around it (those with model hooks), whether its calls
 * carry their scope, and the middleware with tool hooks.
 */
function middlewareConfig(
  agentModel: Model,
  middleware: readonly Middleware[] | undefined,
): { model: Model; scoped?: true; toolMiddleware?: readonly Middleware[] } {
  const list = middleware === undefined ? [] : checkMiddleware(middleware, 'Agent `middleware`');
  const model = list.some(
    (m) => m.request !== undefined || m.generate !== undefined || m.stream !== undefined,
  )
    ? wrapModel(agentModel, list)
    : agentModel;
  const tools = list.filter((m) => m.tool !== undefined);
  return {
    model,
    ...(isWrappedModel(model) && { scoped: true as const }),
    ...(tools.length > 0 && { toolMiddleware: tools }),
  };
}

/** The agent's `memory`, checked for the port's shape. */
function memoryConfig(memory: AgentMemory | undefined): AgentMemory | undefined {
  if (memory === undefined) return undefined;
  if (!isRecord(memory) || typeof memory.recall !== 'function')
    throw agentConfigError(
      'Agent `memory` must implement AgentMemory (a `recall(context)` method), e.g. new Memory({...}) from golem/memory',
    );
  if (memory.remember !== undefined && typeof memory.remember !== 'function')
    throw agentConfigError('Agent `memory.remember` must be a method');
  if (memory.tools !== undefined && !isArrayValue(memory.tools))
    throw agentConfigError('Agent `memory.tools` must be an array of tools');
  return memory;
}

function integer(field: string, value: number | undefined, fallback: number, min: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min) {
    throw agentConfigError(`Agent \`${field}\` must be an integer >= ${min}, got ${String(value)}`);
  }
  return value;
}

function timeout(field: string, value: number | undefined): number {
  if (value === undefined) return 0;
  const problem = timeoutProblem(value);
  if (problem !== undefined)
    throw agentConfigError(`Agent \`${field}\` ${problem} (0 = off), got ${String(value)}`);
  return value;
}

function retryWait(value: number | undefined): number {
  if (value === undefined) return DEFAULT_MAX_RETRY_WAIT_MS;
  const problem = timeoutProblem(value);
  if (problem !== undefined)
    throw agentConfigError(
      `Agent \`maxRetryWait\` ${problem} (0 = never wait for a provider), got ${String(value)}`,
    );
  return value;
}

function nonNegative(field: string, value: number | undefined): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw agentConfigError(
      `Agent \`${field}\` must be a number >= 0 (0 = off), got ${String(value)}`,
    );
  }
  return value;
}

function schema(field: string, value: JsonSchema | string): JsonSchema {
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch (cause) {
      throw agentConfigError(
        `Agent \`${field}\` is not valid JSON (${(cause as Error).message}); pass a JSON Schema object`,
        { cause },
      );
    }
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw agentConfigError(`Agent \`${field}\` must be a JSON Schema object`);
  }
  return Object.freeze(JSON.parse(JSON.stringify(parsed)) as JsonSchema);
}

function resolveOutputTool(value: NonNullable<AgentConfig<unknown, unknown>['outputTool']>) {
  if (typeof value.name !== 'string' || value.name === '')
    throw agentConfigError('Agent `outputTool.name` must be a non-empty tool name');
  if (!TOOL_NAME.test(value.name))
    throw agentConfigError(
      `Agent \`outputTool.name\` "${value.name}" must be 1–64 letters, digits, "_" or "-"`,
    );
  if ((value.schema as unknown) === undefined || value.schema === '')
    throw agentConfigError('Agent `outputTool.schema` is required: the JSON Schema of the output');
  return {
    name: value.name,
    description: value.description ?? '',
    schema: schema('outputTool.schema', value.schema),
  };
}

function registerTools<Deps>(tools: readonly Tool<Deps>[]): Map<string, Tool<Deps>> {
  if (!isArrayValue(tools))
    throw agentConfigError('Agent `tools` must be an array of tools (see defineTool)');
  const registered = new Map<string, Tool<Deps>>();
  for (const [i, tool] of tools.entries()) {
    const at = `Agent \`tools[${i}]\``;
    if (typeof tool !== 'object' || (tool as unknown) === null)
      throw agentConfigError(`${at} is not a tool; build tools with defineTool`);
    if (typeof tool.name !== 'string' || tool.name === '')
      throw agentConfigError(`${at} has no name`);
    if (typeof tool.execute !== 'function')
      throw agentConfigError(`${at} "${tool.name}" has no execute function`);
    if (
      tool.maxRetries !== undefined &&
      (!Number.isInteger(tool.maxRetries) || tool.maxRetries < 0)
    ) {
      throw agentConfigError(`${at} "${tool.name}": maxRetries must be an integer >= 0`);
    }
    // The same bounds as defineTool: a timer cannot hold more than MAX_TIMEOUT_MS (Node would
    // fire a longer one after 1 ms, timing the tool out at once).
    const timeoutIssue = tool.timeout === undefined ? undefined : timeoutProblem(tool.timeout);
    if (timeoutIssue !== undefined) {
      throw agentConfigError(
        `${at} "${tool.name}": timeout ${timeoutIssue} (0 = the agent's toolTimeout), got ${String(tool.timeout)}`,
      );
    }
    if (registered.has(tool.name))
      throw agentConfigError(
        `Agent: two tools are named "${tool.name}"; tool names must be unique`,
      );
    registered.set(tool.name, tool);
  }
  return registered;
}

function resolveChoice<Deps>(
  choice: string | undefined,
  registered: Map<string, Tool<Deps>>,
): Map<string, Tool<Deps>> {
  if (choice === undefined) return registered;
  if (typeof choice !== 'string' || choice === '')
    throw agentConfigError(
      'Agent `toolChoice` must name a registered tool; omit it to advertise all tools',
    );
  const tool = registered.get(choice);
  if (tool === undefined) {
    throw agentConfigError(
      `Agent \`toolChoice\` "${choice}" is not a registered tool; registered: ${[...registered.keys()].join(', ') || '(none)'}`,
    );
  }
  return new Map([[choice, tool]]);
}

const STORE_METHODS = ['getRun', 'getConversation', 'listRuns', 'replaceRun', 'transaction', 'now'];

/** Validates the agent's `name`, `description` and `store` (after the engine options). Internal. */
export function durableConfig(config: { name?: unknown; description?: unknown; store?: unknown }): {
  name: string;
  description: string | undefined;
  store: RunStore | undefined;
} {
  const { name, description, store } = config;
  if (name !== undefined && (typeof name !== 'string' || name.trim() === ''))
    throw agentConfigError('Agent `name` must be a non-empty string (it is stored with its runs)');
  if (description !== undefined && typeof description !== 'string')
    throw agentConfigError('Agent `description` must be a string');
  if (store !== undefined) {
    const missing = isRecord(store)
      ? STORE_METHODS.filter((m) => typeof store[m] !== 'function')
      : STORE_METHODS;
    if (missing.length > 0)
      throw agentConfigError(
        `Agent \`store\` must be a RunStore (e.g. sqliteStore() from golem/stores/sqlite); it lacks ${missing.join(', ')}`,
      );
  }
  return {
    name: name ?? 'agent',
    description: description === '' ? undefined : description,
    store: store as RunStore | undefined,
  };
}

/** Throws `ConfigError` when `model` cannot stream (a run asked for deltas). Internal. */
export function requireStreaming(model: Model): void {
  if (!isStreamingModel(model))
    throw agentConfigError(
      `model ${model.name ?? '(unnamed)'} does not support streaming; use run() or a StreamingModel`,
    );
}
