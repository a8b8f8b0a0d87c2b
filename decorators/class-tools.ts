import type { Tool } from '../src/core/index';
import { boundTool } from './agent-from-class';
import { compileAgentClass } from './compile/compile-agent';
import { agentDefinitionError, classNameOf } from './errors';
import type { DepsOf } from './markers';

/**
 * The `@Tool` methods of a decorated instance as plain `Tool`s — the same tools `agentFromClass`
 * gives its agent: JSON Schemas from the argument DTOs, arguments validated into DTO instances
 * (failures are `ModelRetry`), the method run on `instance`. Use them without a model, e.g. to
 * serve them over MCP: `createMcpServer({ tools: classTools(new WeatherTools(api)) })`.
 */
export function classTools<T extends object>(instance: T): Tool<DepsOf<T>>[] {
  const value: unknown = instance;
  if (typeof value !== 'object' || value === null) {
    throw agentDefinitionError(
      'not-an-agent',
      typeof value === 'function'
        ? 'classTools got the class, not an instance'
        : `classTools got ${value === null ? 'null' : typeof value}`,
      { className: classNameOf(value), hint: 'pass an instance: classTools(new WeatherAgent(…))' },
    );
  }
  const definition = compileAgentClass(instance.constructor);
  return definition.tools.map((tool) => boundTool<DepsOf<T>>(instance, definition, tool));
}
