import { describeError } from '../kit/error-base';
import { ModelRetry } from '../errors/errors';
import { parseUntrustedJson } from '../kit/safe-json';
import { validateNow } from '../tool/standard-issues';
import { isStandardSchema, isStandardSchemaError } from '../tool/standard-schema';
import type { StandardSchemaV1 } from '../tool/standard-schema';
import type { OutputDecoder } from './decoder';
import { contextFree } from './decoder';
import { isThenable } from '../kit/guards';

/**
 * Checks a parsed value and returns it typed; throw (ideally `ModelRetry`) to reject it.
 * @inline
 */
export type OutputValidator<O> = (value: unknown) => O | Promise<O>;

/**
 * Parses the final response's content as JSON and validates it with a Standard Schema (zod 4,
 * valibot, arktype; `Output` is the schema's output type). Issues become a `ModelRetry` listing
 * `path: message` problems, so `outputRetries` lets the model correct itself. To also send the
 * schema to the model, use `schemaOutput(schema)`.
 */
export function decodeJSON<O>(schema: StandardSchemaV1<unknown, O>): OutputDecoder<O>;
/**
 * Parses the final response's content as JSON and hands it to `validate`. Empty content, invalid
 * JSON, trailing text and validator failures all become `ModelRetry`, so `outputRetries` lets
 * the model correct itself. Without `validate` the parsed value is returned unchecked.
 */
export function decodeJSON<O = unknown>(validate?: OutputValidator<O>): OutputDecoder<O>;
export function decodeJSON<O>(
  validate?: OutputValidator<O> | StandardSchemaV1<unknown, O>,
): OutputDecoder<O> {
  // Checked before "is it a function": arktype's schemas are callable too.
  const check: OutputValidator<O> | undefined = isStandardSchema(validate)
    ? (value) => validateNow(validate, value)
    : validate;
  // The response is all it reads (the engine then builds no context for it).
  return contextFree(async (response) => {
    const content = response.message.content ?? '';
    if (content.trim() === '')
      throw new ModelRetry('the response is empty; respond with a JSON value only');
    let value: unknown;
    try {
      value = parseUntrustedJson(content);
    } catch (cause) {
      throw new ModelRetry(
        `the response is not valid JSON for the expected output: ${describeError(cause)}`,
        { cause },
      );
    }
    if (check === undefined) return value as O;
    try {
      // A synchronous validator's value is returned without another await.
      const checked = check(value);
      return isThenable(checked) ? await checked : checked;
    } catch (cause) {
      if (ModelRetry.is(cause) || isStandardSchemaError(cause)) throw cause;
      throw new ModelRetry(`the JSON does not match the expected output: ${describeError(cause)}`, {
        cause,
      });
    }
  });
}
