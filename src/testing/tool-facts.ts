import type { JsonSchema, JsonValue } from '../core/kit/json';
import type { Message } from '../core/contract/message';
import { isRecord } from '../core/kit/guards';
import { fitsSchema } from './schema-fits';
import { define, has, isSchema } from './schema-node';

/**
 * What the tools reported in a conversation: each top-level key of every tool result whose text
 * is a JSON object, with its value; a later result's key replaces an earlier one's.
 */
export function toolFacts(messages: readonly Message[]): Map<string, JsonValue> {
  const facts = new Map<string, JsonValue>();
  for (const message of messages) {
    if (message.role !== 'tool' || message.content === undefined) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(message.content);
    } catch {
      continue;
    }
    if (!isRecord(parsed)) continue;
    for (const [key, value] of Object.entries(parsed)) facts.set(key, value as JsonValue);
  }
  return facts;
}

/**
 * `sampled` (a value generated from `schema`) with each top-level property that `facts` also
 * names replaced by the fact, when the fact provably fits that property's schema (see
 * {@link fitsSchema}); other properties, and anything that is not an object, stay as sampled.
 */
export function withFacts(
  sampled: JsonValue,
  schema: JsonSchema,
  facts: ReadonlyMap<string, JsonValue>,
): JsonValue {
  if (facts.size === 0 || !isRecord(sampled)) return sampled;
  const properties = propertiesOf(schema, schema);
  if (properties === undefined) return sampled;
  const out: Record<string, JsonValue> = {};
  for (const [key, value] of Object.entries(sampled)) {
    const fact = facts.get(key);
    const fits =
      fact !== undefined && has(properties, key) && fitsSchema(fact, properties[key], schema);
    define(out, key, fits ? fact : value);
  }
  return out;
}

/** The `properties` of an object schema, following a root-level local `$ref` once. */
function propertiesOf(schema: unknown, root: unknown): Record<string, unknown> | undefined {
  if (!isSchema(schema)) return undefined;
  if (isSchema(schema.properties)) return schema.properties;
  const ref = schema.$ref;
  if (typeof ref !== 'string' || !ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const token of ref.slice(2).split('/')) node = isSchema(node) ? node[token] : undefined;
  return isSchema(node) && isSchema(node.properties) ? node.properties : undefined;
}
