import type { JsonValue } from '../core/kit/json';

/** State shared by one {@link sampleFromSchema} call. */
export interface SampleContext {
  readonly root: unknown;
  readonly includeOptional: boolean;
  /** References being expanded, innermost last. */
  readonly refs: string[];
  /**
   * Samples a subschema: the dispatcher of `schema-sample.ts`, carried here so that the keyword
   * modules can recurse without importing it back.
   */
  readonly sample: (
    ctx: SampleContext,
    schema: unknown,
    path: string,
    variant: number,
  ) => JsonValue;
}
