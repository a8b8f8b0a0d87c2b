import type { ToolContext } from '../tool/context';
import type { Tool } from '../tool/tool';
import { toolValidation } from '../tool/validation';
import type { ToolGuard } from './guardrail-checks';

/**
 * Runs one call under its tool guardrails: the arguments are validated first (a `defineTool`
 * tool's `parse` or `args` schema — a bad call is a `ModelRetry` the guardrails never see), the
 * `before` checks see and may rewrite the validated value (a rewrite is passed on as it is), the
 * tool runs with it, and the `after` checks see the result. A tool whose validation is its own
 * (hand-written or wrapped `execute`, a bridged MCP tool) has its parsed arguments checked. Internal.
 */
export async function executeGuarded<Deps>(
  tool: Tool<Deps>,
  guard: ToolGuard,
  parsed: unknown,
  ctx: ToolContext<Deps>,
  signal: AbortSignal,
): Promise<string> {
  const validation = toolValidation(tool);
  const valid = validation === undefined ? parsed : await validation.validate(parsed);
  const args = await guard.before(valid, signal);
  const text: unknown =
    validation === undefined
      ? await tool.execute(args, ctx)
      : await validation.run(args, ctx as ToolContext<never>);
  return guard.after(args, toolText(tool, text), signal);
}

/** What the tool returned, which must be a string for the model. Internal. */
export function toolText<Deps>(tool: Tool<Deps>, text: unknown): string {
  if (typeof text !== 'string') {
    throw new TypeError(
      `tool "${tool.name}" returned ${text === null ? 'null' : typeof text}; a tool must return a string for the model`,
    );
  }
  return text;
}
