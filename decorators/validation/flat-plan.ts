/**
 * The compiled plan of a flat DTO: whether its values can be validated without class-transformer
 * and a full class-validator pass (see `flat-instance.ts`), and what that check needs, read once
 * from the same metadata the full path reads on every call. Anything the plan cannot reproduce
 * exactly makes the DTO ineligible, and it keeps the full path.
 */
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { classChain } from '../metadata';
import { isNotNull } from '../nullable-decorator';
import { classValidator, memoised } from '../peers';
import type { CompiledDto } from '../schema/dto-schema';
import { isNoArgs, type DtoClass } from '../schema/dto-model';
import { transformerStorage } from '../schema/metadata-sources';
import { FORBIDDEN_KEYS, INPUT_LIMITS } from './input-guard';
import { shapePlanOf, type Scalar } from './shape-plan';

/** One declared property, as the input walk (`prepareInput`) treats it. */
export interface FlatProperty {
  /** The primitive the value must be (`undefined`: any primitive). */
  readonly scalar: Scalar | undefined;
  /** Counted by the required check. */
  readonly required: boolean;
  /** `null` means "omitted" (`@IsOptional()` and not `@Nullable()`): the key is dropped. */
  readonly dropsNull: boolean;
  /** `null` is kept as the value (nullable, or a type not visible at run time). */
  readonly keepsNull: boolean;
}

/** A class-validator condition (`@IsOptional()`, `@Nullable()`): validate only when it holds. */
type Condition = (object: object, value: unknown) => boolean;

/** What a class-validator constraint instance offers (`validate` of a built-in validator). */
interface Constraint {
  validate(value: unknown, args: object): unknown;
}

/** The validators of one property, in the order class-validator runs them. */
export interface FlatCheck {
  readonly property: string;
  readonly conditions: readonly Condition[];
  readonly validators: ReadonlyArray<{
    readonly meta: ValidationMetadata;
    readonly constraint: Constraint;
  }>;
}

/** The plan of an eligible DTO. */
export interface FlatPlan {
  readonly dto: DtoClass;
  readonly properties: ReadonlyMap<string, FlatProperty>;
  readonly requiredCount: number;
  /** Properties with validation records: whitelisting allows exactly these. */
  readonly allowed: ReadonlySet<string>;
  readonly checks: readonly FlatCheck[];
}

/**
 * The names of class-validator's own validators (`isString`, `min`, `isEmail`…: its exported
 * `IS_STRING`, `MIN`… constants). They are pure functions of the value and the constraints, so
 * calling one a second time, when a rejected value is re-validated for its report, changes
 * nothing.
 */
const builtInValidators: () => ReadonlySet<string> = memoised(
  () =>
    new Set(
      Object.entries(classValidator())
        .filter(([key, value]) => /^[A-Z][A-Z0-9_]*$/.test(key) && typeof value === 'string')
        .map(([, value]) => value as string),
    ),
);

/** class-transformer's record stores (`@Type`, `@Transform`, `@Expose`, `@Exclude`). */
const TRANSFORMER_STORES = [
  '_typeMetadatas',
  '_transformMetadatas',
  '_exposeMetadatas',
  '_excludeMetadatas',
];

const cache = new WeakMap<CompiledDto, FlatPlan | null>();

/**
 * The flat plan of a compiled DTO (built once, cached), or `undefined` when the DTO needs the
 * full path: nested DTOs, arrays, `Set`s and `Map`s, any class-transformer record, `{ each:
 * true }`, `@ValidateIf`, per-validator conditions, custom or async validators, or a property the
 * prototype defines (a getter or a method, which class-transformer skips).
 */
export function flatPlanOf(compiled: CompiledDto): FlatPlan | undefined {
  let plan = cache.get(compiled);
  if (plan === undefined) {
    plan = buildPlan(compiled) ?? null;
    cache.set(compiled, plan);
  }
  return plan ?? undefined;
}

function buildPlan(compiled: CompiledDto): FlatPlan | undefined {
  const { closure } = compiled;
  const dto = closure.root.dto;
  if (closure.byClass.size !== 1 || isNoArgs(dto)) return undefined;
  if ((dto.prototype as { constructor?: unknown }).constructor !== dto) return undefined;
  if (hasTransformerRecords(dto)) return undefined;
  const shapes = shapePlanOf(closure, `validation against ${closure.root.name}`);
  if (shapes.hasContainers || shapes.root.properties.size + 1 > INPUT_LIMITS.maxNodes) {
    return undefined;
  }
  const properties = new Map<string, FlatProperty>();
  let requiredCount = 0;
  for (const property of shapes.root.properties.values()) {
    const { shape, name } = property;
    if (shape.kind !== 'single' && shape.kind !== 'any') return undefined;
    if (FORBIDDEN_KEYS.has(name) || name in dto.prototype) return undefined;
    if (property.required) requiredCount++;
    const dropsNull = property.omittable && !property.nullable;
    properties.set(name, {
      scalar: shape.kind === 'single' && property.checksKind ? shape.scalar : undefined,
      required: property.required,
      dropsNull,
      keepsNull: !dropsNull && (shape.kind === 'any' || property.nullable),
    });
  }
  const checks = checksOf(dto);
  if (checks === undefined) return undefined;
  return Object.freeze({
    dto,
    properties,
    requiredCount,
    allowed: new Set(checks.map((check) => check.property)),
    checks,
  });
}

/**
 * The validators class-validator runs on an instance of `dto` under the validator options of
 * `validate-dto.ts` (no groups, `always` off, no schema), read with its own selection
 * (`getTargetValidationMetadatas`, `groupByPropertyName`); `undefined` if one is not eligible.
 */
function checksOf(dto: DtoClass): FlatCheck[] | undefined {
  const { getMetadataStorage, ValidationTypes } = classValidator();
  const builtIn = builtInValidators();
  const storage = getMetadataStorage();
  const metas = storage.getTargetValidationMetadatas(
    dto,
    undefined as unknown as string,
    false,
    false,
  );
  if (metas.length === 0) return undefined;
  const checks: FlatCheck[] = [];
  for (const [property, group] of Object.entries(storage.groupByPropertyName(metas))) {
    if (group.length === 0) return undefined;
    const conditions: Condition[] = [];
    const defined: FlatCheck['validators'][number][] = [];
    const custom: FlatCheck['validators'][number][] = [];
    for (const meta of group) {
      if (meta.each || meta.validateIf !== undefined) return undefined;
      if (meta.type === ValidationTypes.WHITELIST) continue;
      if (meta.type === ValidationTypes.CONDITIONAL_VALIDATION) {
        const condition = meta.constraints[0] as unknown;
        if (typeof condition !== 'function') return undefined;
        if (meta.name !== 'isOptional' && condition !== isNotNull) return undefined;
        conditions.push(condition as Condition);
        continue;
      }
      const target = meta.type === ValidationTypes.IS_DEFINED ? defined : custom;
      if (
        meta.type !== ValidationTypes.IS_DEFINED &&
        meta.type !== ValidationTypes.CUSTOM_VALIDATION
      ) {
        return undefined;
      }
      const constraints = storage.getTargetValidatorConstraints(meta.constraintCls);
      if (constraints.length === 0) return undefined;
      for (const constraint of constraints) {
        if (constraint.async || !builtIn.has(constraint.name)) return undefined;
        const instance = constraint.instance as Partial<Constraint> | undefined;
        if (typeof instance?.validate !== 'function') return undefined;
        target.push({ meta, constraint: instance as Constraint });
      }
    }
    checks.push(Object.freeze({ property, conditions, validators: [...defined, ...custom] }));
  }
  return checks;
}

/**
 * Whether class-transformer holds any record for `dto` or a class it inherits from (as either
 * library walks the chain). Its stores are private: if they are not where this reads them, the
 * answer is "yes", and the DTO keeps the full path.
 */
function hasTransformerRecords(dto: DtoClass): boolean {
  const storage = transformerStorage() as unknown as Record<string, unknown>;
  const ancestors = storage.getAncestors;
  if (typeof ancestors !== 'function') return true;
  const chain = new Set<unknown>([
    ...classChain(dto),
    ...(ancestors.call(storage, dto) as unknown[]),
  ]);
  for (const field of TRANSFORMER_STORES) {
    const store = storage[field];
    if (!(store instanceof Map)) return true;
    for (const target of chain) if (store.has(target)) return true;
  }
  return false;
}
