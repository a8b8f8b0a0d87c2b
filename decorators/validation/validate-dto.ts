import type { ClassTransformOptions } from 'class-transformer';
import type { ValidatorOptions } from 'class-validator';
import { ModelRetry } from '../../src/core/index';
import { compileDto, type CompiledDto } from '../schema/dto-schema';
import { isNoArgs } from '../schema/dto-model';
import { classNameOf } from '../errors';
import { classTransformer, classValidator } from '../peers';
import { fillContainers } from './containers';
import { isWithin, problemsOf, reasonOf, type Problem } from './error-messages';
import { flatAccepts, flatInstance } from './flat-instance';
import { flatPlanOf, type FlatPlan } from './flat-plan';
import { guardInput } from './input-guard';
import { prepareInput } from './prepare-input';
import { shapePlanOf } from './shape-plan';

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
 * ("the arguments", "the output"). The instance has the shape its class declares: every nested
 * DTO, array, `Set` and `Map` where the TypeScript type puts one, and nothing else.
 *
 * A flat DTO (see `flat-plan.ts`) takes a compiled fast path for values it can decide alone (a
 * plain object of declared properties with primitive values); everything else, and every
 * report, comes from the full path ({@link toValidInstanceFully}) or from class-validator itself.
 */
export function toValidInstance(compiled: CompiledDto, value: unknown, subject: string): object {
  const plan = flatPlanOf(compiled);
  const instance = plan === undefined ? undefined : flatInstance(plan, value);
  if (instance === undefined) return toValidInstanceFully(compiled, value, subject);
  return flatAccepts(plan as FlatPlan, instance) ? instance : checked(instance, NO_PROBLEMS);
}

/**
 * {@link toValidInstance} without the fast path: the input guard, the walk along the shape
 * plan, class-transformer's `plainToInstance` and class-validator's `validateSync`.
 */
export function toValidInstanceFully(
  compiled: CompiledDto,
  value: unknown,
  subject: string,
): object {
  const dto = compiled.closure.root.dto;
  const plan = shapePlanOf(compiled.closure, `validation against ${classNameOf(dto)}`);
  const guarded = guardInput(value, subject);
  const prepared = prepareInput(plan, guarded);
  if (prepared.problems.length > 0) throw new ModelRetry(reasonOf(prepared.problems));
  if (isNoArgs(dto)) return new dto();
  const instance = classTransformer().plainToInstance(dto, prepared.value, TRANSFORM_OPTIONS);
  if (plan.hasContainers) fillContainers(plan.root, instance);
  return checked(instance, prepared.deferred);
}

const NO_PROBLEMS: readonly Problem[] = Object.freeze([]);

/**
 * `instance` once class-validator reports nothing for it and no deferred problem is left
 * unreported; otherwise throws `ModelRetry` with both lists.
 */
function checked(instance: object, deferred: readonly Problem[]): object {
  const reported = problemsOf(classValidator().validateSync(instance, VALIDATOR_OPTIONS));
  const unreported = deferred.filter(
    (problem) => !reported.some((known) => isWithin(problem.path, known.path)),
  );
  if (reported.length > 0 || unreported.length > 0) {
    throw new ModelRetry(reasonOf([...reported, ...unreported]));
  }
  return instance;
}

/**
 * Validates an untrusted value against a DTO class with the same strict rules tools and outputs
 * use, returning the instance or throwing `ModelRetry` (use it in your own tools and decoders).
 * Throws a `ConfigError` (component `decorators`) if `dto` cannot be validated at all.
 */
export function validateDto<T extends object>(dto: new () => T, value: unknown): T {
  const compiled = compileDto(dto, `validation against ${classNameOf(dto)}`);
  return toValidInstance(compiled, value, 'the value') as T;
}
