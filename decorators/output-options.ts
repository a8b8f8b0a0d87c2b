import type { JsonSchema } from '../src/core/index';

/** How the model is asked for the output, and how it is described. */
export interface OutputOptions {
  /**
   * `'native'` (default): the schema travels as the request's `outputSchema` (the provider's
   * structured output). `'tool'`: the schema becomes a synthesized output tool the model calls.
   */
  readonly mode?: 'native' | 'tool';
  /** The output tool's name in tool mode; default `final_result`. */
  readonly name?: string;
  /** The output's description: the output tool's description, and the schema's `description`. */
  readonly description?: string;
  /**
   * The JSON Schema advertised to the model instead of the one generated from the DTO's metadata
   * (e.g. one `golem schemas` generated from the TypeScript type, for unions or JSDoc). The
   * output is still validated with the DTO's decorators.
   */
  readonly schema?: JsonSchema;
}
