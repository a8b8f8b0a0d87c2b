import { jsonSchemaOf, type JsonSchema, type StandardSchemaV1 } from '../core/index';
import { isRecord } from '../core/kit/guards';
import { memoryOptionError } from './errors';

/**
 * The JSON Schema of a working-memory update: the record's object schema with every field
 * optional and nullable (`null` clears a field), unknown fields refused. The update is validated
 * against the full schema only after it is merged with the current record.
 */
export function patchSchemaOf(schema: StandardSchemaV1): JsonSchema {
  let full: JsonSchema;
  try {
    full = jsonSchemaOf(schema);
  } catch (cause) {
    throw memoryOptionError(
      'workingMemory.schema',
      `no JSON Schema can be derived from the working-memory schema (${(cause as Error).message})`,
    );
  }
  const properties = full.properties;
  if (full.type !== 'object' || !isRecord(properties) || Object.keys(properties).length === 0) {
    throw memoryOptionError(
      'workingMemory.schema',
      'the working-memory schema must describe an object with named fields, e.g. z.object({ plan: z.string() })',
    );
  }
  const optional: Record<string, unknown> = {};
  for (const [key, field] of Object.entries(properties)) {
    const description = isRecord(field) ? field.description : undefined;
    optional[key] = {
      anyOf: [field, { type: 'null' }],
      ...(typeof description === 'string' && { description }),
    };
  }
  const { required: _required, properties: _properties, ...rest } = full;
  return {
    ...rest,
    type: 'object',
    properties: optional,
    additionalProperties: false,
  } as JsonSchema;
}
