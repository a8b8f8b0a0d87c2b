import type { JsonSchema } from '../kit/json';
import type { ToolSpec } from '../contract/request';
import type { ToolContext } from './context';

/**
 * Whether a call needs human approval before it runs; a function decides per call.
 * @inline
 */
export type ApprovalPolicy<Deps> =
  boolean | ((args: unknown, ctx: ToolContext<Deps>) => boolean | Promise<boolean>);

/** A tool the model can call. Build one with {@link defineTool}. */
export interface Tool<Deps = unknown> {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object, advertised to the model. */
  readonly schema: JsonSchema;
  /**
   * Runs the call. `args` is the parsed (untrusted) JSON arguments; `ctx.rawArgs` holds the raw
   * text. Return the text handed back to the model; throw `ModelRetry` to ask for a correction.
   */
  execute(args: unknown, ctx: ToolContext<Deps>): string | Promise<string>;
  /** Correction budget for this tool; overrides the agent's `toolRetries` (0 is meaningful). */
  readonly maxRetries?: number;
  /** Per-execution deadline in ms; overrides the agent's `toolTimeout`; 0 means "use the agent's". */
  readonly timeout?: number;
  /** Under parallel execution, this tool runs alone (a barrier). */
  readonly sequential?: boolean;
  /** Human approval policy: calls pause the run until approved (see deferred tools). */
  readonly approval?: ApprovalPolicy<Deps>;
  /**
   * Running a call twice has the effect of running it once. A stored run resumed after a crash
   * re-runs such a call if it was in flight; any other in-flight call pauses the run for a
   * decision (see durable runs). Default `false`.
   */
  readonly idempotent?: boolean;
}

/** The spec advertised to the model for `tool`. */
export function toolSpec(tool: Tool<never>): ToolSpec {
  return { name: tool.name, description: tool.description, schema: tool.schema };
}
