/**
 * The checks `analyseDto` runs on DTO classes: what counts as a DTO class, nested types,
 * enums, class-transformer renames, initial values (defaults and undecorated fields).
 */
import type { JsonValue, ConfigError } from '../../src/core/index';
import { type AgentDefinitionErrorKind, classNameOf } from '../errors';
import { NoArgs } from '../no-args';
import {
  transformerStorage,
  validationMetadataOf,
  type ValidationMetadata,
} from './metadata-sources';

/** A DTO class: constructible without arguments. */
export type DtoClass = new () => object;

/** Builds the definition error for a mistake in the DTO being analysed. */
export type Fail = (
  kind: AgentDefinitionErrorKind,
  message: string,
  member?: string,
  hint?: string,
  cause?: unknown,
) => ConfigError;

const BUILT_INS: readonly unknown[] = [
  Object,
  Array,
  String,
  Number,
  Boolean,
  Symbol,
  BigInt,
  Date,
  Map,
  Set,
  Function,
  Promise,
  RegExp,
];

/** Whether `value` can be a DTO class at all (a function that is not a built-in). */
export function isDtoCandidate(value: unknown): value is DtoClass {
  return typeof value === 'function' && !BUILT_INS.includes(value) && 'prototype' in value;
}

/** Whether `dto` is `NoArgs` or extends it. */
export function isNoArgs(dto: unknown): boolean {
  return dto === NoArgs || (typeof dto === 'function' && dto.prototype instanceof NoArgs);
}

/** The class a `@ValidateNested()` property nests (from its `@Type`), or a definition error. */
export function nestedClass(meta: ValidationMetadata, property: string, fail: Fail): DtoClass {
  const hint = `add @Type(() => TheClass) next to @ValidateNested() (class-transformer)`;
  const target = meta.target as DtoClass;
  const typeMeta = transformerStorage().findTypeMetadata(target, property) as
    { typeFunction: () => unknown } | undefined;
  if (typeMeta === undefined) {
    throw fail('nested-without-type', 'a nested DTO property has no @Type', property, hint);
  }
  let resolved: unknown;
  try {
    resolved = typeMeta.typeFunction();
  } catch (cause) {
    throw fail(
      'nested-without-type',
      'the @Type function threw (a class used before its declaration, or a circular import)',
      property,
      'declare the nested class first, or break the import cycle',
      cause,
    );
  }
  if (!isDtoCandidate(resolved)) {
    throw fail(
      'nested-without-type',
      `@Type resolves to ${describeType(resolved)}, not a DTO class`,
      property,
      resolved === undefined
        ? 'the class is undefined when @Type runs: check declaration order and circular imports'
        : hint,
    );
  }
  return resolved;
}

/** A property holding a validated DTO (`@Type`) must also be `@ValidateNested()`. */
export function checkTypeWithoutNested(dto: DtoClass, property: string, fail: Fail): void {
  const typeMeta = transformerStorage().findTypeMetadata(dto, property) as
    { typeFunction: () => unknown } | undefined;
  if (typeMeta === undefined) return;
  let resolved: unknown;
  try {
    resolved = typeMeta.typeFunction();
  } catch {
    return;
  }
  if (isDtoCandidate(resolved) && validationMetadataOf(resolved).length > 0) {
    throw fail(
      'invalid-dto',
      `the property holds ${classNameOf(resolved)} (@Type) but is not validated`,
      property,
      'add @ValidateNested() (with { each: true } for arrays)',
    );
  }
}

/** `@IsEnum` must be over a string enum. */
export function checkEnum(meta: ValidationMetadata, property: string, fail: Fail): void {
  const entity: unknown = meta.constraints[0];
  if (typeof entity !== 'object' || entity === null) return;
  if (Object.values(entity).some((value) => typeof value === 'number')) {
    throw fail(
      'numeric-enum',
      '@IsEnum over a numeric enum accepts member names and gives a wrong schema',
      property,
      "use a string enum (A = 'a') or @IsIn([...values])",
    );
  }
}

/** `@Expose`/`@Exclude` are not supported (the schema and the whitelist would disagree). */
export function checkTransformerMetadata(dto: DtoClass, fail: Fail): void {
  const exposed = transformerStorage().getExposedMetadatas(dto);
  const excluded = transformerStorage().getExcludedMetadatas(dto);
  const first = exposed[0] ?? excluded[0];
  if (first !== undefined) {
    throw fail(
      'invalid-dto',
      '@Expose/@Exclude are not supported in tool and output DTOs (the schema and the whitelist would disagree)',
      first.propertyName,
      'name the property as the model should see it, and remove @Expose/@Exclude',
    );
  }
}

/** What a fresh instance carries before any input is applied. */
export interface InitialValues {
  /** Properties a fresh instance sets (omitting them is valid: the initial value stays). */
  readonly initialized: ReadonlySet<string>;
  /** The initial values that are JSON and the same for every instance: schema defaults. */
  readonly defaults: ReadonlyMap<string, JsonValue>;
}

/**
 * The initial values of fresh instances (two are made, so per-instance values such as random
 * ids or timestamps do not become defaults); a field with an initial value but no validator is
 * a definition error (whitelisting would reject it).
 */
export function initialValuesOf(
  dto: DtoClass,
  properties: ReadonlyMap<string, unknown>,
  fail: Fail,
): InitialValues {
  let instance: object;
  let twin: object;
  try {
    instance = new dto();
    twin = new dto();
  } catch (cause) {
    throw fail(
      'invalid-dto',
      'the constructor threw when called without arguments',
      undefined,
      'DTO classes are instantiated by class-transformer: give them a constructor without required arguments',
      cause,
    );
  }
  const initialized = new Set<string>();
  const defaults = new Map<string, JsonValue>();
  for (const key of Object.keys(instance)) {
    if (!properties.has(key)) {
      if (isNoArgs(dto)) continue;
      throw fail(
        'invalid-dto',
        'the field has an initial value but no validator, so whitelisting would reject every instance',
        key,
        'add a validator (e.g. @IsString()) or @Allow()',
      );
    }
    const value: unknown = (instance as Record<string, unknown>)[key];
    if (value === undefined) continue;
    initialized.add(key);
    const again: unknown = (twin as Record<string, unknown>)[key];
    if (isJson(value) && JSON.stringify(value) === JSON.stringify(again)) defaults.set(key, value);
  }
  return { initialized, defaults };
}

function isJson(value: unknown): value is JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(isJson);
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    return Object.values(value).every(isJson);
  }
  return false;
}

/** A short description of a value where a class was expected. */
export function describeType(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (typeof value === 'function') return classNameOf(value);
  return typeof value;
}
