import { plainToInstance } from 'class-transformer';
import type { ClassTransformOptions } from 'class-transformer';
import { validateSync } from 'class-validator';
import type { ValidatorOptions } from 'class-validator';
import { ModelRetry } from '../../src/index';
import { compileDto, type CompiledDto } from '../schema/dto-schema';
import { isNoArgs } from '../schema/dto-model';
import { classNameOf } from '../errors';
import { problemsOf, reasonOf } from './error-messages';
import { guardInput } from './input-guard';
import { prepareInput } from './prepare-input';

/** class-transformer options: no implicit conversion (`"3"` is not `3`), no unset fields. */
export const TRANSFORM_OPTIONS: ClassTransformOptions = Object.freeze({
  enableImplicitConversion: false,
  exposeUnsetFields: false,
  enableCircularCheck: false,
});

/** class-validator options, all explicit: strict whitelisting, unknown values rejected. */
export const VALIDATOR_OPTIONS: ValidatorOptions = Object.freeze({
  whitelist: true,
  forbidNonWhitelisted: true,
  forbidUnknownValues: true,
  skipMissingProperties: false,
  skipNullProperties: false,
  skipUndefinedProperties: false,
  stopAtFirstError: false,
  validationError: Object.freeze({ target: false, value: false }),
});

/**
 * Turns an untrusted value (parsed JSON) into a validated instance of a compiled DTO, or throws
 * `ModelRetry` with a concise `path: message; …` list. `subject` names what was expected
 * ("the arguments", "the output").
 */
export function toValidInstance(compiled: CompiledDto, value: unknown, subject: string): object {
  const guarded = guardInput(value, subject);
  const dto = compiled.closure.root.dto;
  const prepared = prepareInput(compiled.closure, guarded);
  if (prepared.problems.length > 0) throw new ModelRetry(reasonOf(prepared.problems));
  if (isNoArgs(dto)) return new dto();
  const instance = plainToInstance(dto, prepared.value, TRANSFORM_OPTIONS);
  const errors = validateSync(instance, VALIDATOR_OPTIONS);
  if (errors.length > 0) throw new ModelRetry(reasonOf(problemsOf(errors)));
  return instance;
}

/**
 * Validates an untrusted value against a DTO class with the same strict rules tools and outputs
 * use, returning the instance or throwing `ModelRetry` (use it in your own tools and decoders).
 * Throws `AgentDefinitionError` if `dto` cannot be validated at all.
 */
export function validateDto<T extends object>(dto: new () => T, value: unknown): T {
  const compiled = compileDto(dto, `validation against ${classNameOf(dto)}`);
  return toValidInstance(compiled, value, 'the value') as T;
}
