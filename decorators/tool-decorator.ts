import type { ToolContext } from '../src/core/index';
import type { DepsOf } from './markers';
import { appendOwn, METADATA_KEYS, ownerOf } from './metadata';
import type { ToolRecord } from './metadata';
import type { ToolOptions } from './tool-options';

/**
 * What a `@Tool()` method may be: `(args: Dto, ctx: ToolContext<Deps>)`, `(args: NoArgs, ctx)`
 * or `()`. It returns the text handed to the model; any other value is rendered as JSON.
 */
export type ToolMethod<Deps> = (args: never, ctx: ToolContext<Deps>) => unknown;

/**
 * Declares a method as a tool. Records `options` only (own metadata under `golem:tools`); the
 * builder reads the argument DTO from the first parameter's type (`design:paramtypes`) or from
 * `options.args`, generates its JSON Schema and validates every call against it. The method
 * runs on the instance given to `agentFromClass`, with `this` bound.
 *
 * ```ts
 * @Tool({ description: 'Forecast for one city', timeout: 5_000 })
 * forecast(args: ForecastArgs, ctx: ToolContext<User>): Promise<string> { ... }
 * ```
 */
export function Tool<Deps = unknown>(
  options?: ToolOptions<Deps>,
): <T extends object, M extends ToolMethod<DepsOf<T>>>(
  target: T,
  member: string | symbol,
  descriptor: TypedPropertyDescriptor<M>,
) => void {
  return (target, member) => {
    const { ctor, isStatic } = ownerOf(target);
    const record: ToolRecord = {
      member,
      options: { ...(options ?? {}) } as ToolOptions,
      isStatic,
    };
    appendOwn(METADATA_KEYS.tools, ctor, record);
  };
}
