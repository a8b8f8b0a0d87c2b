/**
 * The two metadata stores schemas and validation read: class-validator's (global, one per
 * process) and class-transformer's (`@Type`, reachable only by a deep import; P16).
 */
import type { ValidationMetadata as LibraryMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { classValidator, memoised, transformerStorage } from '../peers';

/** The fields of a class-validator record the builder reads (a plain copy). */
export type ValidationMetadata = Pick<
  LibraryMetadata,
  'type' | 'name' | 'target' | 'propertyName' | 'constraints' | 'constraintCls' | 'each'
>;

// class-transformer's storage (`@Type`, `@Expose`, `@Exclude`), loaded on first use.
export { transformerStorage };

/** Every validation record that applies to `dto` (its own and its bases'), constraint names filled in. */
export function validationMetadataOf(dto: object): ValidationMetadata[] {
  const storage = classValidator().getMetadataStorage();
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

/** The type of a DTO property, and whether decorator metadata said so. */
export interface PropertyType {
  /** `design:type`, else the primitive (or `Date`) a validator states, else `undefined`. */
  readonly type: unknown;
  /** Whether the toolchain emitted `design:type` (tsx, esbuild and Vite ≤ 7 do not). */
  readonly reflected: boolean;
}

/** Validators that state a property's type when no `design:type` was emitted. */
const statedTypes: () => ReadonlyMap<string, unknown> = memoised(() => {
  const cv = classValidator();
  return new Map<string, unknown>([
    [cv.IS_STRING, String],
    [cv.IS_NUMBER, Number],
    [cv.IS_INT, Number],
    [cv.IS_BOOLEAN, Boolean],
    [cv.IS_DATE, Date],
  ]);
});

/**
 * The type of `property` on `dto`: its `design:type` where the toolchain emitted one; otherwise
 * what its validators state (`@IsString()` → `String`, `@IsInt()` → `Number`…, not with
 * `{ each: true }`), so a DTO declared explicitly behaves the same under tsx and esbuild.
 */
export function propertyTypeOf(dto: object, property: string): PropertyType {
  const prototype = (dto as { prototype: object }).prototype;
  if (Reflect.hasMetadata('design:type', prototype, property)) {
    return {
      type: Reflect.getMetadata('design:type', prototype, property) as unknown,
      reflected: true,
    };
  }
  const types = statedTypes();
  const stated = new Set(
    validationMetadataOf(dto)
      .filter((meta) => meta.propertyName === property && !meta.each)
      .map((meta) => types.get(meta.type))
      .filter((type) => type !== undefined),
  );
  return { type: stated.size === 1 ? [...stated][0] : undefined, reflected: false };
}

/** Whether a custom validator record runs asynchronously (`@ValidatorConstraint({ async: true })`). */
export function isAsyncValidator(meta: ValidationMetadata): boolean {
  const cv = classValidator();
  if (meta.type === cv.ValidationTypes.PROMISE_VALIDATION) return true;
  if (typeof meta.constraintCls !== 'function') return false;
  return cv
    .getMetadataStorage()
    .getTargetValidatorConstraints(meta.constraintCls)
    .some((constraint) => constraint.async);
}

/**
 * The properties of `dto` (not its bases) carrying class-transformer `@Type` records. The
 * storage has no public listing, so this reads its map defensively (empty if it changes shape).
 */
export function typedProperties(dto: object): string[] {
  const maps = (transformerStorage() as unknown as { _typeMetadatas?: unknown })._typeMetadatas;
  if (!(maps instanceof Map)) return [];
  const own: unknown = maps.get(dto);
  return own instanceof Map ? [...(own.keys() as Iterable<unknown>)].filter(isString) : [];
}

function isString(value: unknown): value is string {
  return typeof value === 'string';
}

/** Every class that currently has class-validator records (for the CLI's discovery). */
export function validatedClasses(): Set<object> {
  const storage = classValidator().getMetadataStorage() as unknown as {
    validationMetadatas?: unknown;
  };
  const map = storage.validationMetadatas;
  const classes = new Set<object>();
  if (map instanceof Map) {
    for (const key of map.keys() as Iterable<unknown>) {
      if (typeof key === 'function') classes.add(key);
    }
  }
  return classes;
}
