import { pathJoin } from '../../src/core/kit/problem-text';
import type { Problem } from './error-messages';
import { kindOf } from './input-guard';
import type { ClassPlan, PropertyPlan, Shape, ShapePlan } from './shape-plan';

/** An input checked against the DTO's shape plan, ready for class-transformer. */
export interface PreparedInput {
  readonly value: Record<string, unknown>;
  /**
   * Problems reported before class-validator runs: undeclared properties, and values whose
   * arity or container differs from the declared type (an array for one `Address`, an object
   * for `Address[]`, an array inside `Address[]`).
   */
  readonly problems: readonly Problem[];
  /**
   * Problems class-validator may report in its own words (a missing required property, a
   * primitive of the wrong kind): reported after it, where it said nothing about that path.
   */
  readonly deferred: readonly Problem[];
}

interface Found {
  readonly problems: Problem[];
  readonly deferred: Problem[];
}

/**
 * Walks a guarded input along the DTO's shape plan, recursively (a DTO in an array in a DTO):
 * every property must be declared (whitelisting that also catches keys class-transformer would
 * silently drop, like `toString`); each value must have the arity its TypeScript type declares;
 * `null` for an `@IsOptional()` property that is not `@Nullable()` means "omitted" (so schemas
 * where optional fields are sent as `null`, as in OpenAI strict mode, validate). Returns a copy;
 * the input is not modified.
 */
export function prepareInput(plan: ShapePlan, value: Record<string, unknown>): PreparedInput {
  const found: Found = { problems: [], deferred: [] };
  const prepared = prepareObject(plan.root, value, '', found);
  return { value: prepared, ...found };
}

function prepareObject(
  plan: ClassPlan,
  value: Record<string, unknown>,
  path: string,
  found: Found,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const property = plan.properties.get(key);
    const at = pathJoin(path, key);
    if (property === undefined) {
      found.problems.push({ path: at, message: 'is not an allowed property' });
      continue;
    }
    const item = value[key];
    if (item === null && property.omittable && !property.nullable) continue;
    out[key] = prepareValue(property, item, at, found);
  }
  for (const property of plan.properties.values()) {
    if (property.required && !Object.hasOwn(out, property.name)) {
      found.deferred.push({ path: pathJoin(path, property.name), message: 'is required' });
    }
  }
  return out;
}

function prepareValue(property: PropertyPlan, item: unknown, path: string, found: Found): unknown {
  const { shape } = property;
  if (shape.kind === 'any') return item;
  if (item === null) {
    if (property.nullable) return item;
    const problem = { path, message: `expected ${expected(shape)}, got null` };
    (shape.kind === 'single' ? found.deferred : found.problems).push(problem);
    return item;
  }
  if (shape.kind === 'single') {
    if (Array.isArray(item)) {
      found.problems.push({ path, message: `expected ${expected(shape)}, got an array` });
    } else if (shape.scalar !== undefined && property.checksKind && typeof item !== shape.scalar) {
      found.deferred.push({ path, message: `expected ${expected(shape)}, got ${kindOf(item)}` });
    }
    return item;
  }
  if (shape.kind === 'object') return prepareElement(shape.nested, item, path, found);
  if (shape.kind === 'list') {
    if (!Array.isArray(item)) {
      found.problems.push({ path, message: `expected an array, got ${kindOf(item)}` });
      return item;
    }
    const element = shape.element;
    if (element === undefined) return item;
    return item.map((entry: unknown, index) =>
      prepareElement(element, entry, `${path}[${index}]`, found),
    );
  }
  if (!isPlainObject(item)) {
    found.problems.push({ path, message: `expected an object, got ${kindOf(item)}` });
    return item;
  }
  const element = shape.element;
  if (element === undefined) return item;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(item)) {
    out[key] = prepareElement(element, item[key], pathJoin(path, key), found);
  }
  return out;
}

/** One nested DTO value: a JSON object, walked along its plan. */
function prepareElement(plan: ClassPlan, item: unknown, path: string, found: Found): unknown {
  if (isPlainObject(item)) return prepareObject(plan, item, path, found);
  found.problems.push({ path, message: `expected an object, got ${kindOf(item)}` });
  return item;
}

function expected(shape: Exclude<Shape, { kind: 'any' }>): string {
  if (shape.kind === 'list') return 'an array';
  if (shape.kind !== 'single') return 'an object';
  return shape.scalar === undefined ? 'a single value' : `a ${shape.scalar}`;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
