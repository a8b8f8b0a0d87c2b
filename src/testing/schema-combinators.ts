import type { JsonValue } from '../core/kit/json';
import type { SampleContext } from './schema-sample-context';
import { SchemaSampleError } from './schema-sample-error';
import { has, isSchema, withoutKeys, type Schema } from './schema-node';
import { mergeSchemas } from './schema-merge';
import { resolveRefBranch } from './schema-ref';

/** Samples the first `anyOf`/`oneOf` branch (merged with the sibling keywords) that can be sampled. */
export function sampleBranches(
  ctx: SampleContext,
  schema: Schema,
  keyword: 'anyOf' | 'oneOf',
  path: string,
  variant: number,
): JsonValue {
  const branches = schema[keyword];
  if (!Array.isArray(branches) || branches.length === 0) {
    throw new SchemaSampleError(path, `"${keyword}" must be a non-empty array`);
  }
  const rest = withoutKeys(schema, [keyword]);
  let first: unknown;
  for (let i = 0; i < branches.length; i++) {
    const branchPath = `${path}/${keyword}/${i}`;
    try {
      const branch: unknown = branches[i];
      if (Object.keys(rest).length === 0) return ctx.sample(ctx, branch, branchPath, variant);
      const resolved =
        isSchema(branch) && has(branch, '$ref')
          ? resolveRefBranch(ctx, branch, branchPath)
          : branch;
      return ctx.sample(ctx, mergeSchemas(rest, resolved, branchPath), branchPath, variant);
    } catch (error) {
      if (!(error instanceof SchemaSampleError)) throw error;
      first ??= error;
    }
  }
  throw first;
}

/** Merges the `allOf` branches (nested ones and `$ref` ones inlined) into one schema. */
export function flattenAllOf(
  ctx: SampleContext,
  schema: Schema,
  path: string,
  inlining: string[],
): Schema {
  const branches = schema.allOf;
  if (!Array.isArray(branches)) throw new SchemaSampleError(path, '"allOf" must be an array');
  let merged: Schema = withoutKeys(schema, ['allOf']);
  branches.forEach((branch: unknown, i) => {
    const branchPath = `${path}/allOf/${i}`;
    let resolved: unknown = branch;
    let nextInlining = inlining;
    if (isSchema(branch) && has(branch, '$ref')) {
      const ref = branch.$ref as string;
      if (inlining.includes(ref) || ctx.refs.includes(ref)) {
        throw new SchemaSampleError(
          branchPath,
          `recursive $ref "${ref}" inside allOf is not supported`,
        );
      }
      resolved = resolveRefBranch(ctx, branch, branchPath);
      nextInlining = [...inlining, ref];
    }
    if (resolved === true) return;
    if (resolved === false)
      throw new SchemaSampleError(branchPath, 'the schema `false` accepts no value');
    if (!isSchema(resolved))
      throw new SchemaSampleError(branchPath, 'a schema must be an object or a boolean');
    const flat = has(resolved, 'allOf')
      ? flattenAllOf(ctx, resolved, branchPath, nextInlining)
      : resolved;
    merged = mergeSchemas(merged, flat, branchPath) as Schema;
  });
  return merged;
}
