import type { AnyClass, OutputTypeCheck } from './markers';
import { METADATA_KEYS, readOwn, writeOwn } from './metadata';
import type { OutputRecord } from './metadata';
import type { OutputOptions } from './output-options';

/**
 * Declares the agent's structured output: a class-validator DTO. The builder generates its JSON
 * Schema (sent natively, or as an output tool with `mode: 'tool'`) and decodes the final answer
 * into a validated instance of `dto`; validation failures are fed back within `outputRetries`.
 * The class must declare the same type as `declare readonly [OUTPUT_TYPE]: Dto;` so
 * `result.output` is typed (checked here at compile time).
 *
 * ```ts
 * @Output(Forecast)                                   // native structured output
 * @Output(Forecast, { mode: 'tool', name: 'record_weather' })
 * ```
 */
export function Output<T extends object>(
  dto: new () => T,
  options?: OutputOptions,
): <C extends AnyClass>(target: C & OutputTypeCheck<C, T>) => void {
  return (target) => {
    const previous = readOwn(METADATA_KEYS.output, target) as OutputRecord | undefined;
    const record: OutputRecord = {
      dto,
      options: { ...(options ?? {}) },
      count: (previous?.count ?? 0) + 1,
    };
    writeOwn(METADATA_KEYS.output, target, record);
  };
}
