/**
 * What the builder knows about a DTO class and every DTO it nests: its properties (optional,
 * nullable, nested), its defaults, and every declaration mistake, found once at definition time.
 */
import type { JsonValue, ConfigError } from '../../src/core/index';
import { agentDefinitionError, type AgentDefinitionErrorKind, classNameOf } from '../errors';
import { classChain } from '../metadata';
import { isNotNull, isNullable } from '../nullable-decorator';
import { classValidator } from '../peers';
import {
  checkEnum,
  checkTransformerMetadata,
  checkTypeWithoutNested,
  initialValuesOf,
  isNoArgs,
  nestedClass,
  type DtoClass,
  type Fail,
} from './dto-checks';
import {
  isAsyncValidator,
  propertyTypeOf,
  typedProperties,
  validationMetadataOf,
  type ValidationMetadata,
} from './metadata-sources';

export { describeType, isDtoCandidate, isNoArgs } from './dto-checks';
export type { DtoClass } from './dto-checks';

/** One validated property of a DTO. */
export interface PropertyModel {
  readonly name: string;
  /** Not required: `@IsOptional()` or another conditional validation. */
  readonly optional: boolean;
  /** `@IsOptional()` itself: a `null` value means "omitted" unless the property is nullable. */
  readonly omittable: boolean;
  /** `@Nullable()`. */
  readonly nullable: boolean;
  /** The nested DTO class (`@ValidateNested()` + `@Type(() => X)`). */
  readonly nested: DtoClass | undefined;
  /**
   * `design:type` of the property; without decorator metadata, the type its validators state
   * (`@IsString()` → `String`…), else `undefined`.
   */
  readonly designType: unknown;
  /**
   * Whether the toolchain emitted `design:type` for the property (tsc, SWC, Vite 8 with
   * `emitDecoratorMetadata`). tsx, esbuild and Vite ≤ 7 do not: the validators must then state
   * the type.
   */
  readonly reflected: boolean;
}

/** A DTO class, analysed. */
export interface DtoModel {
  readonly dto: DtoClass;
  readonly name: string;
  readonly properties: ReadonlyMap<string, PropertyModel>;
  /** Properties a fresh instance sets: omitting them is valid. */
  readonly initialized: ReadonlySet<string>;
  /** Initial values that are JSON and the same for every instance (schema defaults). */
  readonly defaults: ReadonlyMap<string, JsonValue>;
  /** The validation records, grouped by property (own and inherited). */
  readonly metadata: ReadonlyMap<string, readonly ValidationMetadata[]>;
}

/** A root DTO and every DTO reachable from it, by class and by (unique) name. */
export interface DtoClosure {
  readonly root: DtoModel;
  readonly byClass: ReadonlyMap<DtoClass, DtoModel>;
  readonly byName: ReadonlyMap<string, DtoModel>;
}

/**
 * Analyses `root` and every DTO it nests. Throws `ConfigError` (component `decorators`) naming the
 * DTO, the property and `usedBy` (e.g. "the arguments of WeatherAgent.forecast").
 */
export function analyseDto(root: DtoClass, usedBy: string): DtoClosure {
  const byClass = new Map<DtoClass, DtoModel>();
  const byName = new Map<string, DtoModel>();
  const queue: DtoClass[] = [root];
  while (queue.length > 0) {
    const dto = queue.shift() as DtoClass;
    if (byClass.has(dto)) continue;
    const model = modelOf(dto, usedBy);
    const clash = byName.get(model.name);
    if (clash !== undefined) {
      throw agentDefinitionError(
        'schema-name-collision',
        `two different DTO classes are named "${model.name}" in ${usedBy}; their schemas would be merged`,
        { className: model.name, hint: 'rename one of them (schemas are keyed by class name)' },
      );
    }
    byClass.set(dto, model);
    byName.set(model.name, model);
    for (const property of model.properties.values()) {
      if (property.nested !== undefined) queue.push(property.nested);
    }
  }
  return { root: byClass.get(root) as DtoModel, byClass, byName };
}

function modelOf(dto: DtoClass, usedBy: string): DtoModel {
  const name = classNameOf(dto);
  const fail = (
    kind: AgentDefinitionErrorKind,
    message: string,
    member?: string,
    hint?: string,
    cause?: unknown,
  ): ConfigError =>
    agentDefinitionError(kind, `${message} (in ${usedBy})`, {
      className: name,
      ...(member !== undefined && { member }),
      ...(hint !== undefined && { hint }),
      ...(cause !== undefined && { cause }),
    });
  if (name === '(anonymous)') {
    throw fail(
      'invalid-dto',
      'a DTO class needs a name',
      undefined,
      'declare it as `class Name {…}`',
    );
  }
  // Base classes' properties first, as TypeScript lays the class out.
  const chain = classChain(dto);
  const depth = (meta: ValidationMetadata): number => chain.indexOf(meta.target as object);
  const metas = validationMetadataOf(dto).sort((a, b) => depth(a) - depth(b));
  const grouped = new Map<string, ValidationMetadata[]>();
  for (const meta of metas) {
    const list = grouped.get(meta.propertyName) ?? [];
    list.push(meta);
    grouped.set(meta.propertyName, list);
  }
  if (grouped.size === 0 && !isNoArgs(dto)) {
    throw fail(
      'invalid-dto',
      'the class has no class-validator decorators, so every value would be rejected',
      undefined,
      'decorate each property (e.g. @IsString(), @IsInt(), @Allow())',
    );
  }
  checkTransformerMetadata(dto, fail);
  const properties = new Map<string, PropertyModel>();
  for (const [property, metas] of grouped) {
    properties.set(property, propertyModel(dto, property, metas, fail));
  }
  for (const property of typedProperties(dto)) {
    if (!properties.has(property)) {
      throw fail(
        'invalid-dto',
        'the property has @Type but no validator, so whitelisting would reject it',
        property,
        'add @ValidateNested() for a nested DTO (with { each: true } for arrays), or a validator',
      );
    }
  }
  const { initialized, defaults } = initialValuesOf(dto, properties, fail);
  return Object.freeze({ dto, name, properties, initialized, defaults, metadata: grouped });
}

function propertyModel(
  dto: DtoClass,
  property: string,
  metas: readonly ValidationMetadata[],
  fail: Fail,
): PropertyModel {
  const { type: designType, reflected } = propertyTypeOf(dto, property);
  let nested: DtoClass | undefined;
  let conditional = false;
  let omittable = false;
  const { IS_ENUM, ValidationTypes } = classValidator();
  for (const meta of metas) {
    if (isAsyncValidator(meta)) {
      throw fail(
        'async-validator',
        'this validator is asynchronous; arguments and outputs are validated synchronously',
        property,
        'use a synchronous validator (ValidatorConstraint without async: true)',
      );
    }
    if (meta.type === ValidationTypes.CONDITIONAL_VALIDATION) {
      if (meta.constraints[0] !== isNotNull) conditional = true;
      if (meta.name === 'isOptional') omittable = true;
    }
    if (meta.type === IS_ENUM) checkEnum(meta, property, fail);
    if (meta.type === ValidationTypes.NESTED_VALIDATION) nested = nestedClass(meta, property, fail);
  }
  if (nested === undefined) checkTypeWithoutNested(dto, property, fail);
  return Object.freeze({
    name: property,
    optional: conditional,
    omittable,
    nullable: isNullable(dto, property),
    nested,
    designType,
    reflected,
  });
}
