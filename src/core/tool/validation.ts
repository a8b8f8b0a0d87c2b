import type { ToolContext } from './context';
import type { Tool } from './tool';

/**
 * The two halves of a tool's `execute` when the tool validates its arguments: `validate` turns
 * the parsed, untrusted arguments into the validated value (throwing `ModelRetry` for bad ones),
 * `run` runs the tool with a validated value. `execute(args, ctx)` is `run(await validate(args),
 * ctx)`. Internal.
 */
export interface ToolValidation {
  validate(args: unknown): unknown;
  run(args: unknown, ctx: ToolContext<never>): string | Promise<string>;
}

/** Keyed by the `execute` function, so a spread copy (`{ ...tool, approval }`) keeps its halves. */
const halves = new WeakMap<object, ToolValidation>();

/** Records the halves of `execute` (called by `defineTool`). Internal. */
export function registerToolValidation(
  execute: Tool<never>['execute'],
  validation: ToolValidation,
): void {
  halves.set(execute, validation);
}

/**
 * The validation halves of `tool`, when its `execute` was built by `defineTool` with a `parse` or
 * an `args` schema; `undefined` for any other tool (a hand-written or wrapped `execute`, whose
 * validation, if any, is its own). Internal: the engine shows tool guardrails validated arguments.
 */
export function toolValidation<Deps>(tool: Tool<Deps>): ToolValidation | undefined {
  // The function's identity is the key; it is not called from here.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  return halves.get(tool.execute);
}
