import type { ClassPlan } from './shape-plan';

/**
 * Gives `Set` and `Map` properties their declared container, recursively: class-transformer
 * builds them only for properties with `@Type`, and leaves a `Set<string>` as the JSON array and
 * a `Map<string, string>` as the JSON object it was given. Runs on a fresh instance, before
 * class-validator (whose `{ each: true }` validators iterate sets and map values).
 */
export function fillContainers(plan: ClassPlan, instance: object): void {
  const fields = instance as Record<string, unknown>;
  for (const property of plan.properties.values()) {
    const { shape } = property;
    const value = fields[property.name];
    if (typeof value !== 'object' || value === null) continue;
    if (shape.kind === 'object') {
      fillContainers(shape.nested, value);
    } else if (shape.kind === 'list') {
      const items: Iterable<unknown> = Array.isArray(value) || value instanceof Set ? value : [];
      if (shape.element !== undefined) fillEach(shape.element, items);
      if (shape.container === 'set' && Array.isArray(value)) fields[property.name] = new Set(value);
    } else if (shape.kind === 'map') {
      const map =
        value instanceof Map ? (value as Map<unknown, unknown>) : new Map(Object.entries(value));
      if (shape.element !== undefined) fillEach(shape.element, map.values());
      fields[property.name] = map;
    }
  }
}

function fillEach(plan: ClassPlan, items: Iterable<unknown>): void {
  for (const item of items) {
    if (typeof item === 'object' && item !== null) fillContainers(plan, item);
  }
}
