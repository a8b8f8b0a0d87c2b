import type { StandardSchemaV1 } from '../core/index';
import { ModelRetry } from '../core/index';
import { validateWithSchema } from '../core/tool/standard-issues';
import { WorkflowError } from './workflow-error';

/**
 * `value` validated by `schema` (none: as it is); issues become a `WorkflowError` of `kind`
 * (default `invalid-input`) saying what did not validate. Internal.
 */
export async function validated<T>(
  schema: StandardSchemaV1<unknown, T> | undefined,
  value: unknown,
  what: string,
  where: { runId?: string; step?: string },
): Promise<T> {
  if (schema === undefined) return value as T;
  try {
    return await validateWithSchema(schema, value);
  } catch (error) {
    if (!ModelRetry.is(error)) throw error;
    throw new WorkflowError('invalid-input', `${what} does not validate: ${error.message}`, {
      ...where,
      cause: error,
    });
  }
}
