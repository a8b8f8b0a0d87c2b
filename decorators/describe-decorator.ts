import type { DecoratorSchema } from 'class-validator-jsonschema/build/decorators';
import { METADATA_KEYS } from './metadata';
import { jsonSchemaDecorators, jsonSchemaPeer } from './peers';

/**
 * Describes a DTO property (or a DTO class) for the model: the text becomes the schema's
 * `description`. It merges with any `@JSONSchema(...)` on the same member instead of replacing it
 * (a second `@JSONSchema` replaces the first), in whatever order the two are written.
 *
 * ```ts
 * class ForecastArgs {
 *   @Describe('City name, for example "Lagos"') @IsString() city!: string;
 * }
 * ```
 */
export function Describe(text: string): (target: object, property?: string | symbol) => void {
  return (target, property) => {
    if (typeof property === 'symbol') return;
    const isClass = property === undefined;
    const ctor = isClass ? target : (target as { constructor: object }).constructor;
    if (isClass) Reflect.defineMetadata(METADATA_KEYS.description, text, ctor);
    else Reflect.defineMetadata(METADATA_KEYS.description, text, ctor, property);
    const key = isClass ? (ctor as { name: string }).name : property;
    const existing: DecoratorSchema = jsonSchemaDecorators().getMetadataSchema(
      (ctor as { prototype: object }).prototype,
      key,
    );
    const merged: DecoratorSchema =
      typeof existing === 'function'
        ? (source, options) => ({ ...existing(source, options), description: text })
        : { ...existing, description: text };
    jsonSchemaPeer().JSONSchema(merged)(isClass ? ctor : target, property);
  };
}

/** The `@Describe` text of a DTO class (`property` omitted) or property, own or inherited. */
export function describedAs(dto: object, property?: string): string | undefined {
  const text: unknown =
    property === undefined
      ? Reflect.getOwnMetadata(METADATA_KEYS.description, dto)
      : Reflect.getMetadata(METADATA_KEYS.description, dto, property);
  return typeof text === 'string' ? text : undefined;
}
