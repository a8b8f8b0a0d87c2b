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
 * schema to the model, use `schemaOutput(schema)`. A synchronous schema's value is returned as
 * it is (no promise); a rejection is always a rejected promise, never a synchronous throw.
 */
export function decodeJSON<O>(schema: StandardSchemaV1<unknown, O>): OutputDecoder<O>;
/**
 * Parses the final response's content as JSON and hands it to `validate`. Empty content, invalid
 * JSON, trailing text and validator failures all become `ModelRetry`, so `outputRetries` lets
 * the model correct itself. Without `validate` the parsed value is returned unchecked. A
 * synchronous validator's value is returned as it is (no promise); a rejection is always a
 * rejected promise, never a synchronous throw.
 */
export function decodeJSON<O = unknown>(validate?: OutputValidator<O>): OutputDecoder<O>;
export function decodeJSON<O>(
  validate?: OutputValidator<O> | StandardSchemaV1<unknown, O>,
): OutputDecoder<O> {
  // Checked before "is it a function": arktype's schemas are callable too.
  const check: OutputValidator<O> | undefined = isStandardSchema(validate)
    ? (value) => validateNow(validate, value)
    : validate;
  // The response is all it reads (the engine then builds no context for it). A synchronous
  // validator's value is returned as it is, with no promise (the engine awaits nothing more); a
  // rejection is always a rejected promise, never a synchronous throw.
  return contextFree((response) => {
    let checked: O | Promise<O>;
    try {
      const value = parseAnswer(response.message.content);
      if (check === undefined) return value as O;
      checked = check(value);
    } catch (cause) {
      return Promise.reject(asRetry(cause));
    }
    return isThenable(checked) ? Promise.resolve(checked).catch(rethrowAsRetry) : checked;
  });
}

/** The answer's content parsed as JSON; a `ModelRetry` when it is empty or not JSON. */
function parseAnswer(content: string | null | undefined): unknown {
  if (content === undefined || content === null || content.trim() === '')
    throw new ModelRetry('the response is empty; respond with a JSON value only');
  try {
    return parseUntrustedJson(content);
  } catch (cause) {
    throw new ModelRetry(
      `the response is not valid JSON for the expected output: ${describeError(cause)}`,
      { cause },
    );
  }
}

/**
 * A rejection of the answer as the engine feeds it back: a `ModelRetry` or a schema's issues as
 * they are, anything else a validator threw wrapped in a `ModelRetry`.
 */
function asRetry(cause: unknown): Error {
  if (ModelRetry.is(cause) || isStandardSchemaError(cause)) return cause;
  return new ModelRetry(`the JSON does not match the expected output: ${describeError(cause)}`, {
    cause,
  });
}

function rethrowAsRetry(cause: unknown): never {
  throw asRetry(cause);
}
