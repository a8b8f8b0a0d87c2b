import { describeError } from '../model/error-base';
import { ModelRetry } from '../model/errors';
import { parseUntrustedJson } from '../model/safe-json';
import type { OutputDecoder } from './decoder';

/** Checks a parsed value and returns it typed; throw (ideally `ModelRetry`) to reject it. */
export type OutputValidator<O> = (value: unknown) => O | Promise<O>;

/**
 * Parses the final response's content as JSON and hands it to `validate`. Empty content, invalid
 * JSON, trailing text and validator failures all become `ModelRetry`, so `outputRetries` lets
 * the model correct itself. Without `validate` the parsed value is returned unchecked.
 */
export function decodeJSON<O = unknown>(validate?: OutputValidator<O>): OutputDecoder<O> {
  return async (response) => {
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
    if (validate === undefined) return value as O;
    try {
      return await validate(value);
    } catch (cause) {
      if (ModelRetry.is(cause)) throw cause;
      throw new ModelRetry(`the JSON does not match the expected output: ${describeError(cause)}`, {
        cause,
      });
    }
  };
}
