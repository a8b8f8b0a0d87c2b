import type { HostedTool } from '../../core/contract/hosted-tool';
import { hostedToolProblem } from '../../core/contract/hosted-tool';
import { modelConfigError } from '../../core/errors/provider-errors';
import type { ModelRequest } from '../../core/contract/request';
import { UnsupportedHostedToolError } from '../../core/contract/unsupported';

/**
 * The request's hosted tools, each checked (a model `ConfigError` for a malformed one); `[]` when
 * there are none.
 */
export function hostedToolsOf(provider: string, request: ModelRequest): HostedTool[] {
  const tools: unknown = (request as { hostedTools?: unknown }).hostedTools;
  if (tools === undefined || tools === null) return [];
  if (!Array.isArray(tools))
    throw modelConfigError(provider, 'hostedTools must be an array of hosted tools');
  return tools.map((tool: unknown, i) => {
    const problem = hostedToolProblem(tool);
    if (problem !== undefined) throw modelConfigError(provider, `hostedTools[${i}]: ${problem}`);
    return tool as HostedTool;
  });
}

/**
 * Throws `UnsupportedHostedToolError` when the request declares any hosted tool: for adapters
 * whose API runs no server-side tools (`reason` says what to use instead).
 */
export function refuseHostedTools(provider: string, request: ModelRequest, reason: string): void {
  const [first] = hostedToolsOf(provider, request);
  if (first !== undefined) throw new UnsupportedHostedToolError(provider, first, reason);
}

/** The wire fields `tool.providerOptions` adds for `provider` (an empty object when none). */
export function providerFields(tool: HostedTool, provider: string): Record<string, unknown> {
  const options = tool.providerOptions;
  if (options === undefined || !Object.hasOwn(options, provider)) return {};
  return { ...options[provider] };
}
