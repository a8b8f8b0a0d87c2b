import type { JsonValue } from '../core/kit/json';
import type { SampleContext } from './schema-sample-context';
import { RecursiveRefError, SchemaSampleError } from './schema-sample-error';
import { bound, has, isSchema, type Schema } from './schema-node';

/** Samples an array schema: tuple prefix, `items`, item counts and `uniqueItems`. */
export function sampleArray(
  ctx: SampleContext,
  schema: Schema,
  path: string,
  variant: number,
): JsonValue {
  const tupleForm = Array.isArray(schema.items);
  const rawPrefix = tupleForm ? schema.items : has(schema, 'prefixItems') ? schema.prefixItems : [];
  if (!Array.isArray(rawPrefix))
    throw new SchemaSampleError(path, '"prefixItems" must be an array');
  const prefix: unknown[] = rawPrefix;
  const prefixKey = tupleForm ? 'items' : 'prefixItems';
  const restKey = tupleForm ? 'additionalItems' : 'items';
  const rest: unknown = schema[restKey];
  const min = bound(schema, 'minItems', path) ?? 0;
  const max = bound(schema, 'maxItems', path) ?? Number.POSITIVE_INFINITY;
  let count = Math.max(min, prefix.length, prefix.length === 0 && isSchema(rest) ? 1 : 0);
  if (rest === false) count = Math.min(count, prefix.length);
  count = Math.min(count, max);
  if (count < min) throw new SchemaSampleError(path, `minItems ${min} cannot be met`);
  const unique = schema.uniqueItems === true;
  const out: JsonValue[] = [];
  for (let i = 0; i < count; i++) {
    const itemPath = i < prefix.length ? `${path}/${prefixKey}/${i}` : `${path}/${restKey}`;
    const itemSchema = i < prefix.length ? prefix[i] : (rest ?? true);
    try {
      out.push(ctx.sample(ctx, itemSchema, itemPath, unique ? variant + i : variant));
    } catch (error) {
      if (i >= min && error instanceof RecursiveRefError) break;
      throw error;
    }
  }
  if (unique && new Set(out.map((v) => JSON.stringify(v))).size !== out.length) {
    throw new SchemaSampleError(
      path,
      `cannot generate ${out.length} distinct items for uniqueItems`,
    );
  }
  return out;
}
