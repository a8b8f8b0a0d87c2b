import { METADATA_KEYS, readProperty, writeProperty } from './metadata';
import { classValidator } from './peers';

/** The condition `@Nullable` validates under: only non-null values are checked. */
export function isNotNull(_object: object, value: unknown): boolean {
  return value !== null;
}

/**
 * Allows `null` for a DTO property (`city!: string | null`): the other validators run only on
 * non-null values, and the schema's type gains `"null"`. The property stays required unless it
 * is also `@IsOptional()`.
 */
export function Nullable(): (target: object, property: string) => void {
  return (target, property) => {
    writeProperty(METADATA_KEYS.nullable, target.constructor, property, true);
    classValidator().ValidateIf(isNotNull)(target, property);
  };
}

/** Whether `property` of `dto` (or a base) is `@Nullable()`. */
export function isNullable(dto: object, property: string): boolean {
  return readProperty(METADATA_KEYS.nullable, dto, property) === true;
}
