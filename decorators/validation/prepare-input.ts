import type { DtoClosure, DtoModel } from '../schema/dto-model';

/** An input checked against the DTO's declared properties, ready for class-transformer. */
export interface PreparedInput {
  readonly value: Record<string, unknown>;
  /** `path: message` problems found (undeclared properties). */
  readonly problems: readonly string[];
}

/**
 * Walks a guarded input along the DTO and its nested DTOs: every property must be declared
 * (whitelisting that also catches keys class-transformer would silently drop, like `toString`),
 * and `null` for an `@IsOptional()` property that is not `@Nullable()` means "omitted" (so
 * schemas where optional fields are sent as `null`, as in OpenAI strict mode, validate). Returns
 * a copy; the input is not modified.
 */
export function prepareInput(closure: DtoClosure, value: Record<string, unknown>): PreparedInput {
  const problems: string[] = [];
  const prepared = prepareObject(closure, closure.root, value, '', problems);
  return { value: prepared, problems };
}

function prepareObject(
  closure: DtoClosure,
  model: DtoModel,
  value: Record<string, unknown>,
  path: string,
  problems: string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const property = model.properties.get(key);
    if (property === undefined) {
      problems.push(`${path}${key}: is not an allowed property`);
      continue;
    }
    const item = value[key];
    if (item === null && property.omittable && !property.nullable) continue;
    const nested = property.nested === undefined ? undefined : closure.byClass.get(property.nested);
    out[key] =
      nested === undefined ? item : prepareNested(closure, nested, item, `${path}${key}`, problems);
  }
  return out;
}

function prepareNested(
  closure: DtoClosure,
  model: DtoModel,
  value: unknown,
  path: string,
  problems: string[],
): unknown {
  if (Array.isArray(value)) {
    return value.map((item: unknown, index) =>
      isPlainObject(item)
        ? prepareObject(closure, model, item, `${path}[${index}].`, problems)
        : item,
    );
  }
  return isPlainObject(value) ? prepareObject(closure, model, value, `${path}.`, problems) : value;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
