/**
 * The shape plan of a DTO: for each property, the arity and container its TypeScript type
 * declares (one value, an array, a `Set`, a `Map`), read once from `design:type`, the
 * class-validator records (`{ each: true }`, `@IsArray()`, `@ArrayMinSize()`…) and the
 * class-transformer `@Type`. Validation walks the input along it before class-transformer runs.
 */
import { agentDefinitionError, classNameOf } from '../errors';
import type { ConfigError } from '../../src/core/index';
import { classValidator, memoised } from '../peers';
import type { DtoClass, DtoClosure, DtoModel, PropertyModel } from '../schema/dto-model';
import { isDtoCandidate } from '../schema/dto-model';
import { transformerStorage, type ValidationMetadata } from '../schema/metadata-sources';

/** A primitive a property's `design:type` declares. */
export type Scalar = 'string' | 'number' | 'boolean';

/** What a property accepts, structurally. */
export type Shape =
  /** Anything (the type is not visible at run time: a union, `unknown`, an interface…). */
  | { readonly kind: 'any' }
  /** One value that is not an array; `scalar` when the type is `string`, `number` or `boolean`. */
  | { readonly kind: 'single'; readonly scalar: Scalar | undefined }
  /** One nested DTO: a JSON object. */
  | { readonly kind: 'object'; readonly nested: ClassPlan }
  /** An array (or a `Set`, filled from a JSON array), of nested DTOs when `element` is set. */
  | {
      readonly kind: 'list';
      readonly container: 'array' | 'set';
      readonly element: ClassPlan | undefined;
    }
  /** A `Map`, filled from a JSON object, of nested DTOs when `element` is set. */
  | { readonly kind: 'map'; readonly element: ClassPlan | undefined };

/** One property of a {@link ClassPlan}. */
export interface PropertyPlan {
  readonly name: string;
  readonly shape: Shape;
  /** Neither optional nor set by the constructor: omitting it is a problem. */
  readonly required: boolean;
  /** `@IsOptional()`: `null` means "omitted" unless the property is nullable. */
  readonly omittable: boolean;
  /** `@Nullable()`. */
  readonly nullable: boolean;
  /** Whether the primitive kind of a `single` scalar is checked (not when `@Type` converts it). */
  readonly checksKind: boolean;
}

/** The plan of one DTO class. */
export interface ClassPlan {
  readonly name: string;
  readonly properties: ReadonlyMap<string, PropertyPlan>;
}

/** The plan of a root DTO and every DTO it nests. */
export interface ShapePlan {
  readonly root: ClassPlan;
  /** Whether some `Set` or `Map` property is reachable (instances need a finishing pass). */
  readonly hasContainers: boolean;
}

/** Validators that only apply to arrays: their presence declares an array. */
const arrayValidators: () => ReadonlySet<string> = memoised(() => {
  const cv = classValidator();
  return new Set([
    cv.IS_ARRAY,
    cv.ARRAY_CONTAINS,
    cv.ARRAY_NOT_CONTAINS,
    cv.ARRAY_NOT_EMPTY,
    cv.ARRAY_MIN_SIZE,
    cv.ARRAY_MAX_SIZE,
    cv.ARRAY_UNIQUE,
  ]);
});

const cache = new WeakMap<DtoClosure, ShapePlan>();

/**
 * The shape plan of an analysed DTO (cached per closure, so built once per class). Throws
 * `ConfigError` (component `decorators`) where the TypeScript type and the validators disagree
 * about arity (`address!: Address` with `{ each: true }`); `usedBy` names the use in that message.
 */
export function shapePlanOf(closure: DtoClosure, usedBy: string): ShapePlan {
  const cached = cache.get(closure);
  if (cached !== undefined) return cached;
  const plans = new Map<DtoClass, { name: string; properties: Map<string, PropertyPlan> }>();
  for (const model of closure.byClass.values()) {
    plans.set(model.dto, { name: model.name, properties: new Map() });
  }
  let hasContainers = false;
  for (const model of closure.byClass.values()) {
    const target = plans.get(model.dto) as { properties: Map<string, PropertyPlan> };
    for (const property of model.properties.values()) {
      const shape = shapeOf(model, property, (dto) => plans.get(dto) as ClassPlan, usedBy);
      if ((shape.kind === 'list' && shape.container === 'set') || shape.kind === 'map') {
        hasContainers = true;
      }
      target.properties.set(
        property.name,
        Object.freeze({
          name: property.name,
          shape,
          required: !property.optional && !model.initialized.has(property.name),
          omittable: property.omittable,
          nullable: property.nullable,
          checksKind: !hasTypeRecord(model.dto, property.name),
        }),
      );
    }
  }
  for (const plan of plans.values()) Object.freeze(plan);
  const plan: ShapePlan = Object.freeze({
    root: plans.get(closure.root.dto) as ClassPlan,
    hasContainers,
  });
  cache.set(closure, plan);
  return plan;
}

function shapeOf(
  model: DtoModel,
  property: PropertyModel,
  planOf: (dto: DtoClass) => ClassPlan,
  usedBy: string,
): Shape {
  const metas = model.metadata.get(property.name) ?? [];
  const element = property.nested === undefined ? undefined : planOf(property.nested);
  const many = declaresMany(metas);
  const design = property.designType;
  if (design === Array) return Object.freeze({ kind: 'list', container: 'array', element });
  if (design === Set) return Object.freeze({ kind: 'list', container: 'set', element });
  if (design === Map) return Object.freeze({ kind: 'map', element });
  const scalar = scalarOf(design);
  if (scalar !== undefined || design === Date || isDtoCandidate(design)) {
    if (many) throw arityMismatch(model, property.name, design, usedBy);
    if (element !== undefined) return Object.freeze({ kind: 'object', nested: element });
    return Object.freeze({ kind: 'single', scalar });
  }
  // The type is not visible at run time (a union, `unknown`, no decorator metadata):
  // the validators say what is expected.
  if (many) return Object.freeze({ kind: 'list', container: 'array', element });
  if (element !== undefined) return Object.freeze({ kind: 'object', nested: element });
  return Object.freeze({ kind: 'any' });
}

/** Whether the property has a class-transformer `@Type` (which may convert the value). */
function hasTypeRecord(dto: DtoClass, property: string): boolean {
  const record = transformerStorage().findTypeMetadata(dto, property) as object | undefined;
  return record !== undefined;
}

function declaresMany(metas: readonly ValidationMetadata[]): boolean {
  const arrays = arrayValidators();
  return metas.some((meta) => meta.each || arrays.has(meta.type));
}

function scalarOf(design: unknown): Scalar | undefined {
  if (design === String) return 'string';
  if (design === Number) return 'number';
  if (design === Boolean) return 'boolean';
  return undefined;
}

function arityMismatch(
  model: DtoModel,
  property: string,
  design: unknown,
  usedBy: string,
): ConfigError {
  const type = scalarOf(design) ?? classNameOf(design);
  return agentDefinitionError(
    'invalid-dto',
    `the property is declared as one ${type} but validated as an array ` +
      `({ each: true } or an array validator) (in ${usedBy})`,
    {
      className: model.name,
      member: property,
      hint: 'declare an array type (X[]), or remove { each: true } and the array validators',
    },
  );
}
