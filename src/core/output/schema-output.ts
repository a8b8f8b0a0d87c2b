import type { JsonSchema } from '../kit/json';
import { jsonSchemaOf } from '../tool/standard-json-schema';
import { standardSchemaError, vendorOf, type StandardSchemaV1 } from '../tool/standard-schema';
import { decodeJSON } from './decode-json';
import type { OutputDecoder } from './decoder';

/** The output tool's default name in tool mode (the same as `@Output`'s). */
export const DEFAULT_OUTPUT_TOOL_NAME = 'final_result';

/**
 * How {@link schemaOutput} asks the model for the output.
 * @inline
 */
export interface SchemaOutputOptions {
  /**
   * `'native'` (default): the JSON Schema travels as the request's `outputSchema`. `'tool'`: it
   * becomes the parameters of an output tool the model calls.
   */
  readonly mode?: 'native' | 'tool';
  /** The output tool's name in tool mode; default `final_result`. */
  readonly name?: string;
  /** The output's description: the schema's root `description`, and the output tool's. */
  readonly description?: string;
  /** Advertised instead of the derived JSON Schema; the output is still validated by the schema. */
  readonly schema?: JsonSchema;
}

/**
 * Native structured output from a Standard Schema: spread it into the agent's configuration.
 * @inline
 */
export interface NativeSchemaOutput<O> {
  /** Parses the answer as JSON and validates it with the schema. */
  readonly output: OutputDecoder<O>;
  /** The schema's JSON Schema (canonical dialect). */
  readonly outputSchema: JsonSchema;
}

/**
 * Tool-mode structured output from a Standard Schema: spread it into the agent's configuration.
 * @inline
 */
export interface ToolSchemaOutput<O> {
  /** Parses the output call's arguments and validates them with the schema. */
  readonly output: OutputDecoder<O>;
  /** The output tool: its name, description and the schema's JSON Schema. */
  readonly outputTool: { name: string; description: string; schema: JsonSchema };
}

/**
 * Structured output declared once, by a Standard Schema (zod 4, valibot, arktype): the decoder
 * that validates the answer (`decodeJSON(schema)`) plus the JSON Schema sent to the model (from
 * the library's converter, see `jsonSchemaOf`). Spread it into the agent's configuration; the
 * result's `output` is typed as the schema's output.
 *
 * ```ts
 * const Forecast = z.object({ city: z.string(), celsius: z.int() });
 * const agent = new Agent({ model, ...schemaOutput(Forecast), outputRetries: 1 });
 * const { output } = await agent.run('Weather in Lagos?'); // { city: string; celsius: number }
 * ```
 *
 * Throws a `ConfigError` (component `schema`) when no JSON Schema can be derived (pass
 * `options.schema` then).
 */
export function schemaOutput<O>(
  schema: StandardSchemaV1<unknown, O>,
  options?: SchemaOutputOptions & { readonly mode?: 'native' },
): NativeSchemaOutput<O>;
/** Tool-mode structured output declared by a Standard Schema (see the native overload). */
export function schemaOutput<O>(
  schema: StandardSchemaV1<unknown, O>,
  options: SchemaOutputOptions & { readonly mode: 'tool' },
): ToolSchemaOutput<O>;
export function schemaOutput<O>(
  schema: StandardSchemaV1<unknown, O>,
  options: SchemaOutputOptions = {},
): NativeSchemaOutput<O> | ToolSchemaOutput<O> {
  const mode: unknown = options.mode ?? 'native';
  if (mode !== 'native' && mode !== 'tool') {
    throw standardSchemaError(
      vendorOf(schema),
      `schemaOutput: mode ${JSON.stringify(mode)} is unknown; use 'native' or 'tool'`,
    );
  }
  const base = options.schema ?? jsonSchemaOf(schema);
  const { description } = options;
  const jsonSchema = description === undefined ? base : { ...base, description };
  const output = decodeJSON(schema);
  if (mode === 'native') return { output, outputSchema: jsonSchema };
  return {
    output,
    outputTool: {
      name: options.name ?? DEFAULT_OUTPUT_TOOL_NAME,
      description: description ?? '',
      schema: jsonSchema,
    },
  };
}
