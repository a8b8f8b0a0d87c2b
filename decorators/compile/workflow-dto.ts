import { ModelRetry, describeError, type StandardSchemaV1 } from '../../src/core/index';
import { compileDto } from '../schema/dto-schema';
import { isNoArgs, type DtoClass } from '../schema/dto-model';
import { toValidInstance } from '../validation/validate-dto';

/** A DTO class as a workflow uses it: a strict parser and the Standard Schema the runner checks. */
export interface WorkflowDto {
  /** Validates `value` (taken as JSON) into a DTO instance, or throws `ModelRetry`. */
  readonly parse: (value: unknown) => object;
  /** The same validation as a Standard Schema whose value is the plain JSON of the instance. */
  readonly schema: StandardSchemaV1;
}

/**
 * The value as JSON data: what a checkpoint stores and a replay returns, so a fresh value and a
 * replayed one are validated alike. Throws `ModelRetry` when the value is not JSON-serialisable.
 */
export function asJson(value: unknown): unknown {
  if (value === undefined) return undefined;
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch (error) {
    throw new ModelRetry(`the value is not JSON-serialisable (${describeError(error)})`);
  }
  if (typeof text !== 'string') throw new ModelRetry('the value is not JSON-serialisable');
  return JSON.parse(text) as unknown;
}

/**
 * The parser and schema of `dto` with the strict rules tool arguments use (whitelist, unknown
 * values rejected, no implicit conversion). `NoArgs` accepts nothing, `null` or an empty object.
 * `usedBy` names the user in definition errors (`OrderWorkflow.reserve`).
 */
export function workflowDto(dto: DtoClass, usedBy: string): WorkflowDto {
  const parse = isNoArgs(dto) ? noInput(dto) : dtoInput(dto, usedBy);
  const validate = (value: unknown): StandardSchemaV1.Result<unknown> => {
    try {
      return { value: asJson(parse(value)) };
    } catch (error) {
      if (ModelRetry.is(error)) return { issues: [{ message: error.reason }] };
      throw error;
    }
  };
  const schema: StandardSchemaV1 = {
    '~standard': { version: 1, vendor: 'golem-decorators', validate },
  };
  return Object.freeze({ parse, schema });
}

function dtoInput(dto: DtoClass, usedBy: string): (value: unknown) => object {
  const compiled = compileDto(dto, usedBy);
  return (value) => toValidInstance(compiled, asJson(value), 'the value');
}

function noInput(dto: DtoClass): (value: unknown) => object {
  return (value) => {
    const json = asJson(value);
    const empty =
      json === undefined ||
      json === null ||
      (typeof json === 'object' && !Array.isArray(json) && Object.keys(json).length === 0);
    if (!empty) throw new ModelRetry('expected no value (the method takes no input)');
    return new dto();
  };
}
