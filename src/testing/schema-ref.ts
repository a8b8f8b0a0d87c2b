import type { JsonValue } from '../core/kit/json';
import type { SampleContext } from './schema-sample-context';
import { RecursiveRefError, SchemaSampleError } from './schema-sample-error';
import { has, isSchema, withoutKeys, type Schema } from './schema-node';
import { mergeSchemas } from './schema-merge';

/** Samples a `$ref` schema: the local target, merged with any sibling keywords. */
export function sampleRef(
  ctx: SampleContext,
  schema: Schema,
  path: string,
  variant: number,
): JsonValue {
  const ref = schema.$ref;
  const target = resolveRef(ctx, ref, path);
  const refPath = ref as string;
  if (ctx.refs.includes(refPath)) {
    if (acceptsNull(target)) return null;
    throw new RecursiveRefError(path, `recursive $ref "${refPath}" has no finite value here`);
  }
  const siblings = withoutKeys(schema, ['$ref']);
  const effective =
    Object.keys(siblings).length === 0 ? target : mergeSchemas(siblings, target, path);
  ctx.refs.push(refPath);
  try {
    return ctx.sample(ctx, effective, refPath, variant);
  } finally {
    ctx.refs.pop();
  }
}

function resolveRef(ctx: SampleContext, ref: unknown, path: string): unknown {
  if (typeof ref !== 'string') throw new SchemaSampleError(path, '"$ref" must be a string');
  if (ref !== '#' && !ref.startsWith('#/')) {
    throw new SchemaSampleError(
      path,
      `only local JSON Pointer references such as "#/$defs/Name" are supported, got "${ref}"`,
    );
  }
  let node: unknown = ctx.root;
  for (const raw of ref === '#' ? [] : ref.slice(2).split('/')) {
    let token: string;
    try {
      token = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    } catch {
      token = raw;
    }
    if (Array.isArray(node) && /^(0|[1-9]\d*)$/.test(token)) node = node[Number(token)];
    else if (isSchema(node) && has(node, token)) node = node[token];
    else node = undefined;
    if (node === undefined) throw new SchemaSampleError(path, `$ref "${ref}" does not resolve`);
  }
  return node;
}

/** Inlines a `$ref` branch for merging, refusing a reference that is being expanded. */
export function resolveRefBranch(ctx: SampleContext, branch: Schema, path: string): unknown {
  const ref = branch.$ref;
  const target = resolveRef(ctx, ref, path);
  if (ctx.refs.includes(ref as string)) {
    throw new RecursiveRefError(path, `recursive $ref "${ref as string}" has no finite value here`);
  }
  const siblings = withoutKeys(branch, ['$ref']);
  return Object.keys(siblings).length === 0 ? target : mergeSchemas(siblings, target, path);
}

/** Whether a schema says outright that `null` is valid (`type` includes it, or `nullable`). */
function acceptsNull(schema: unknown): boolean {
  if (!isSchema(schema)) return schema === true;
  const type = schema.type;
  return (
    schema.nullable === true || type === 'null' || (Array.isArray(type) && type.includes('null'))
  );
}
