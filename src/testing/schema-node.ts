import { SchemaSampleError } from './schema-sample-error';

/** A schema object (as opposed to the boolean schemas `true` and `false`). */
export type Schema = Record<string, unknown>;

export function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function has(schema: Schema, key: string): boolean {
  return Object.prototype.hasOwnProperty.call(schema, key);
}

export function define(target: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

export function withoutKeys(schema: Schema, keys: readonly string[]): Schema {
  const copy: Schema = {};
  for (const key of Object.keys(schema)) if (!keys.includes(key)) define(copy, key, schema[key]);
  return copy;
}

export function finite(schema: Schema, key: string, path: string): number | undefined {
  if (!has(schema, key)) return undefined;
  const value = schema[key];
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    throw new SchemaSampleError(path, `"${key}" must be a finite number`);
  }
  return value;
}

export function bound(schema: Schema, key: string, path: string): number | undefined {
  const value = finite(schema, key, path);
  if (value !== undefined && (value < 0 || !Number.isInteger(value))) {
    throw new SchemaSampleError(path, `"${key}" must be a non-negative integer`);
  }
  return value;
}
