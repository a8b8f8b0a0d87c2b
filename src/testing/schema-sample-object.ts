import type { JsonValue } from '../core/kit/json';
import type { SampleContext } from './schema-sample-context';
import { RecursiveRefError, SchemaSampleError } from './schema-sample-error';
import { bound, define, has, isSchema, type Schema } from './schema-node';

/** Samples an object schema: properties, `required`, `additionalProperties`, property counts. */
export function sampleObject(
  ctx: SampleContext,
  schema: Schema,
  path: string,
  variant: number,
): JsonValue {
  const properties = has(schema, 'properties') ? schema.properties : {};
  if (!isSchema(properties)) throw new SchemaSampleError(path, '"properties" must be an object');
  const rawRequired = has(schema, 'required') ? schema.required : [];
  if (!Array.isArray(rawRequired) || !rawRequired.every((r) => typeof r === 'string')) {
    throw new SchemaSampleError(path, '"required" must be an array of strings');
  }
  const required = new Set<string>(rawRequired);
  const additional = schema.additionalProperties;
  const declared = Object.keys(properties);
  const requiredKeys = [
    ...declared.filter((k) => required.has(k)),
    ...[...required].filter((k) => !has(properties, k)),
  ];
  const optionalKeys = declared.filter((k) => !required.has(k));
  const min = bound(schema, 'minProperties', path) ?? 0;
  const max = bound(schema, 'maxProperties', path) ?? Number.POSITIVE_INFINITY;
  if (requiredKeys.length > max) {
    throw new SchemaSampleError(
      path,
      `${requiredKeys.length} required properties exceed maxProperties ${max}`,
    );
  }
  let optionalCount = ctx.includeOptional ? optionalKeys.length : 0;
  optionalCount = Math.min(
    Math.max(optionalCount, min - requiredKeys.length),
    optionalKeys.length,
    max - requiredKeys.length,
  );
  const included = new Set([...requiredKeys, ...optionalKeys.slice(0, optionalCount)]);

  const out: Record<string, JsonValue> = {};
  for (const key of [...declared, ...requiredKeys.filter((k) => !has(properties, k))]) {
    if (!included.has(key)) continue;
    if (has(properties, key)) {
      try {
        define(
          out,
          key,
          ctx.sample(ctx, properties[key], `${path}/properties/${pointerToken(key)}`, variant),
        );
      } catch (error) {
        if (!required.has(key) && error instanceof RecursiveRefError) continue;
        throw error;
      }
    } else {
      if (additional === false) {
        throw new SchemaSampleError(
          path,
          `required property "${key}" is not in "properties" and additionalProperties is false`,
        );
      }
      define(
        out,
        key,
        ctx.sample(ctx, additional ?? true, `${path}/additionalProperties`, variant),
      );
    }
  }
  for (let n = 1; Object.keys(out).length < min; n++) {
    if (additional === false) {
      throw new SchemaSampleError(
        path,
        `minProperties ${min} cannot be met: additionalProperties is false`,
      );
    }
    const key = `extra${n}`;
    if (!has(out, key) && !has(properties, key)) {
      define(
        out,
        key,
        ctx.sample(ctx, additional ?? true, `${path}/additionalProperties`, variant),
      );
    }
  }
  if (has(schema, 'propertyNames') && Object.keys(out).length > 0) {
    throw new SchemaSampleError(path, 'unsupported keyword "propertyNames" on a non-empty object');
  }
  return out;
}

function pointerToken(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}
