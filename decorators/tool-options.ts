import type { JsonSchema, Tool } from '../src/core/index';

/**
 * What `@Tool(options)` declares about one tool method. `Deps` types the `approval` function's
 * context (`@Tool<User>({ approval: (args, ctx) => ctx.deps.role !== 'admin' })`).
 */
export interface ToolOptions<Deps = unknown> {
  /** The tool name the model calls; default the method name in snake_case (`getWeather` → `get_weather`). */
  readonly name?: string;
  /** What the tool does, for the model. Default `''`. */
  readonly description?: string;
  /** Per-execution deadline in ms; overrides the agent's `toolTimeout`. */
  readonly timeout?: number;
  /** Correction budget for this tool; overrides the agent's `toolRetries`. */
  readonly maxRetries?: number;
  /** Under parallel execution, this tool runs alone (a barrier). */
  readonly sequential?: boolean;
  /** Safe to run twice: a stored run resumed after a crash re-runs it if it was in flight. */
  readonly idempotent?: boolean;
  /** Human approval: `true`, or a function deciding per call (receives the raw arguments). */
  readonly approval?: Tool<Deps>['approval'];
  /**
   * The argument DTO class (`NoArgs` for a tool that takes only its context), for toolchains that
   * do not emit `design:paramtypes` (tsx, esbuild, Vite ≤ 7 and so Vitest on it). With
   * `emitDecoratorMetadata` it is read from the first parameter's type.
   */
  readonly args?: new () => object;
  /**
   * The JSON Schema advertised to the model instead of the one generated from `args` (e.g. from
   * `golem schemas`). Validation still uses the DTO's decorators.
   */
  readonly schema?: JsonSchema;
}
