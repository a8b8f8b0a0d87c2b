import { Agent as EngineAgent, ConfigError } from '../../src/core/index';
import type { AgentConfig, Model, ModelResponse, Tool } from '../../src/core/index';
import { AGENT_OPTION_NAMES, type AgentOptions } from '../agent-options';
import { agentDefinitionError, classNameOf } from '../errors';
import { classChain, METADATA_KEYS, readOwn, type AgentRecord } from '../metadata';
import type { AgentDefinition } from './definition';
import { compileInstructions } from './compile-instructions';
import { compileOutput } from './compile-output';
import { compileTools } from './compile-tools';
import { compileGuardrails } from './compile-guardrails';

const cache = new WeakMap<object, AgentDefinition>();

/**
 * Compiles a decorated class into its frozen definition: options, instructions, tools (with
 * schemas and validators) and output. Compiled once per class (cached); building again returns
 * the same definition. Every declaration mistake throws `ConfigError` (component `decorators`).
 */
export function compileAgentClass(target: unknown): AgentDefinition {
  if (typeof target !== 'function') {
    throw agentDefinitionError('not-an-agent', `expected an agent class, got ${typeof target}`, {
      className: classNameOf(target),
      hint: 'pass the class decorated with @Agent(...)',
    });
  }
  const cached = cache.get(target);
  if (cached !== undefined) return cached;
  const className = classNameOf(target);
  const agentOptions = mergedOptions(target, className);
  const { model = 'default', ...options } = agentOptions;
  const definition: AgentDefinition = Object.freeze({
    target: target as AgentDefinition['target'],
    className,
    model,
    options: Object.freeze(options),
    instructions: Object.freeze(compileInstructions(target)),
    tools: Object.freeze(compileTools(target)),
    output: compileOutput(target),
    guardrails: Object.freeze(compileGuardrails(target)),
  });
  checkAssembled(definition);
  cache.set(target, definition);
  return definition;
}

function mergedOptions(target: object, className: string): AgentOptions {
  let declared = false;
  const merged: Record<string, unknown> = {};
  for (const owner of classChain(target)) {
    const record = readOwn(METADATA_KEYS.agent, owner) as AgentRecord | undefined;
    if (record === undefined) continue;
    declared = true;
    for (const [key, value] of Object.entries(record.options as Record<string, unknown>)) {
      if (!(AGENT_OPTION_NAMES as readonly string[]).includes(key)) {
        throw agentDefinitionError('invalid-option', `@Agent has an unknown option "${key}"`, {
          className: classNameOf(owner),
          hint: `the options are ${AGENT_OPTION_NAMES.join(', ')}`,
        });
      }
      if (value !== undefined) merged[key] = value;
    }
  }
  if (!declared) {
    throw agentDefinitionError('not-an-agent', 'the class has no @Agent decorator', {
      className,
      hint: "decorate it with @Agent({ model: 'default' }) (from golem/decorators)",
    });
  }
  if (merged.model !== undefined && (typeof merged.model !== 'string' || merged.model === '')) {
    throw agentDefinitionError('invalid-option', '@Agent model must be a binding name', {
      className,
      hint: "pass a name such as 'default'; give the model object to agentFromClass",
    });
  }
  return merged;
}

const placeholderModel: Model = {
  name: 'definition-check',
  generate: (): Promise<ModelResponse> => Promise.reject(new Error('not callable')),
};

/**
 * Validates the assembled configuration with the engine itself (limits, `toolChoice`, the output
 * tool's name against the tools), so mistakes surface when the class is compiled.
 */
function checkAssembled(definition: AgentDefinition): void {
  const { output, className } = definition;
  if (output?.mode === 'tool' && definition.tools.some((tool) => tool.name === output.name)) {
    throw agentDefinitionError(
      'duplicate-tool',
      `the output tool "${output.name}" has the name of a tool`,
      { className, hint: "rename one: @Output(Dto, { mode: 'tool', name: '…' })" },
    );
  }
  const tools: Tool[] = definition.tools.map((tool) => ({
    name: tool.name,
    description: tool.description,
    schema: tool.schema,
    execute: () => '',
  }));
  const config: AgentConfig<unknown, unknown> = {
    ...definition.options,
    model: placeholderModel,
    tools,
    ...(output?.mode === 'native' && { outputSchema: output.schema }),
    ...(output?.mode === 'tool' && {
      outputTool: {
        name: output.name,
        description: output.description ?? '',
        schema: output.schema,
      },
    }),
  };
  try {
    new EngineAgent(config);
  } catch (cause) {
    if (!ConfigError.is(cause, 'agent')) throw cause;
    throw agentDefinitionError('invalid-option', cause.message, {
      className,
      hint: 'fix the @Agent options',
      cause,
    });
  }
}
