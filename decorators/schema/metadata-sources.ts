/**
 * The two metadata stores schemas and validation read: class-validator's (global, one per
 * process) and class-transformer's (`@Type`, reachable only by a deep import; P16).
 */
import { getMetadataStorage, ValidationTypes } from 'class-validator';
import type { ValidationMetadata as LibraryMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { defaultMetadataStorage } from 'class-transformer/cjs/storage';
import type { MetadataStorage as TransformerStorage } from 'class-transformer/types/MetadataStorage';

/** The fields of a class-validator record the builder reads (a plain copy). */
export type ValidationMetadata = Pick<
  LibraryMetadata,
  'type' | 'name' | 'target' | 'propertyName' | 'constraints' | 'constraintCls' | 'each'
>;

/** class-transformer's storage of `@Type`, `@Expose`, `@Exclude` records. */
export const transformerStorage: TransformerStorage = defaultMetadataStorage;

/** Every validation record that applies to `dto` (its own and its bases'), constraint names filled in. */
export function validationMetadataOf(dto: object): ValidationMetadata[] {
  const storage = getMetadataStorage();
  return storage
    .getTargetValidationMetadatas(dto as new () => object, '', true, false)
    .map((meta): ValidationMetadata => {
      const constraint =
        typeof meta.constraintCls === 'function'
          ? storage.getTargetValidatorConstraints(meta.constraintCls)[0]
          : undefined;
      return {
        type: constraint === undefined ? meta.type : constraint.name,
        name: meta.name,
        target: meta.target,
        propertyName: meta.propertyName,
        constraints: meta.constraints,
        constraintCls: meta.constraintCls,
        each: meta.each,
      };
    });
}

/** Whether a custom validator record runs asynchronously (`@ValidatorConstraint({ async: true })`). */
export function isAsyncValidator(meta: ValidationMetadata): boolean {
  if (meta.type === ValidationTypes.PROMISE_VALIDATION) return true;
  if (typeof meta.constraintCls !== 'function') return false;
  return getMetadataStorage()
    .getTargetValidatorConstraints(meta.constraintCls)
    .some((constraint) => constraint.async);
}

/**
 * The properties of `dto` (not its bases) carrying class-transformer `@Type` records. The
 * storage has no public listing, so this reads its map defensively (empty if it changes shape).
 */
export function typedProperties(dto: object): string[] {
  const maps = (transformerStorage as unknown as { _typeMetadatas?: unknown })._typeMetadatas;
  if (!(maps instanceof Map)) return [];
  const own: unknown = maps.get(dto);
  return own instanceof Map ? [...(own.keys() as Iterable<unknown>)].filter(isString) : [];
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/** Every class that currently has class-validator records (for the CLI's discovery). */
export function validatedClasses(): Set<object> {
  const storage = getMetadataStorage() as unknown as { validationMetadatas?: unknown };
  const map = storage.validationMetadatas;
  const classes = new Set<object>();
  if (map instanceof Map) {
    for (const key of map.keys() as Iterable<unknown>) {
      if (typeof key === 'function') classes.add(key);
    }
  }
  return classes;
}
