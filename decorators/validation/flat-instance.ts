/**
 * The fast path of a flat DTO (one class, properties of one primitive value): the checks of
 * `guardInput` and `prepareInput`, the instance class-transformer would build, and the validators
 * class-validator would run, done directly from a {@link FlatPlan}. Each step either reaches the
 * same result as the full path or hands the value back to it, so accepted values, instances and
 * error reports are the full path's (`test/decorators/flat-fast-path.test.ts` checks this over
 * random DTOs and values).
 */
import type { FlatPlan } from './flat-plan';
import { INPUT_LIMITS } from './input-guard';

/**
 * The instance of `plan`'s DTO for `value`, built as `plainToInstance` builds it from the
 * prepared input (a fresh instance, then each kept key assigned in input order, keys whose
 * current value is a function skipped); `undefined` when the value is not a plain object of
 * declared properties with primitive values that `guardInput` and `prepareInput` would pass
 * without a problem: the full path then decides, and reports.
 */
export function flatInstance(plan: FlatPlan, value: unknown): object | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) return undefined;
  const input = value as Record<string, unknown>;
  const keys = Object.keys(input);
  let chars = 0;
  let required = 0;
  for (const key of keys) {
    const property = plan.properties.get(key);
    if (property === undefined) return undefined;
    const item = input[key];
    chars += key.length;
    if (item === null) {
      if (property.dropsNull) continue;
      if (!property.keepsNull) return undefined;
    } else {
      const kind = typeof item;
      if (kind === 'string') chars += (item as string).length;
      else if (kind === 'number') {
        if (!Number.isFinite(item)) return undefined;
      } else if (kind !== 'boolean') return undefined;
      if (property.scalar !== undefined && property.scalar !== kind) return undefined;
    }
    if (property.required) required++;
  }
  if (required !== plan.requiredCount || chars > INPUT_LIMITS.maxChars) return undefined;
  const dto = plan.dto;
  const instance = new dto() as Record<string, unknown>;
  // class-transformer reads the skip rules from `instance.constructor`: the plan's checks hold
  // for the DTO's own prototype only (a constructor that reassigns `constructor` takes the full
  // path, which calls it once more).
  if (instance.constructor !== dto) return undefined;
  for (const key of keys) {
    const item = input[key];
    if (item === null && (plan.properties.get(key) as { dropsNull: boolean }).dropsNull) continue;
    if (instance[key] instanceof Function) continue;
    instance[key] = item;
  }
  return instance;
}

/**
 * Whether class-validator would report nothing for `instance` (built by {@link flatInstance}):
 * every own key has validation records (whitelisting), and on every property whose conditions
 * hold (`@IsOptional()`, `@Nullable()`), every validator passes, called with the arguments
 * class-validator passes. `false` sends the instance to class-validator itself for the report.
 */
export function flatAccepts(plan: FlatPlan, instance: object): boolean {
  for (const key of Object.keys(instance)) if (!plan.allowed.has(key)) return false;
  const object = instance as Record<string, unknown>;
  const targetName = plan.dto.name;
  for (const check of plan.checks) {
    const value = object[check.property];
    let applies = true;
    for (const condition of check.conditions) if (!condition(instance, value)) applies = false;
    if (!applies) continue;
    for (const { meta, constraint } of check.validators) {
      const args = {
        targetName,
        property: meta.propertyName,
        object: instance,
        value,
        constraints: meta.constraints,
      };
      if (!constraint.validate(value, args)) return false;
    }
  }
  return true;
}
