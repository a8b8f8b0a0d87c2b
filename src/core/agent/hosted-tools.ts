import { agentConfigError } from '../engine/errors';
import type { HostedTool } from '../contract/hosted-tool';
import { hostedToolProblem } from '../contract/hosted-tool';
import { isArrayValue } from '../kit/guards';

/**
 * Validates `AgentConfig.hostedTools` (`ConfigError` naming the entry and the problem) and returns
 * the engine field: a frozen copy, or nothing when there are none. Hosted tools are kept apart
 * from the registered tools, so the engine can never execute one; two of the same type are a
 * mistake.
 */
export function hostedToolsConfig(tools: readonly HostedTool[] | undefined): {
  hostedTools?: readonly HostedTool[];
} {
  if (tools === undefined) return {};
  if (!isArrayValue(tools))
    throw agentConfigError(
      'Agent `hostedTools` must be an array of hosted tools, e.g. [webSearchTool()]',
    );
  const seen = new Set<string>();
  tools.forEach((tool, i) => {
    const problem = hostedToolProblem(tool);
    if (problem !== undefined) throw agentConfigError(`Agent \`hostedTools[${i}]\`: ${problem}`);
    if (seen.has(tool.type))
      throw agentConfigError(
        `Agent \`hostedTools[${i}]\`: a second ${tool.type} tool; declare each hosted tool once`,
      );
    seen.add(tool.type);
  });
  return tools.length === 0 ? {} : { hostedTools: Object.freeze([...tools]) };
}
