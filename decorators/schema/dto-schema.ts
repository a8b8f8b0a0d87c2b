/**
 * The canonical JSON Schema of a DTO class, generated at run time from its class-validator and
 * class-transformer metadata (class-validator-jsonschema + our post-processor), cached per class.
 */
import type { JsonSchema } from '../../src/core/index';
import { agentDefinitionError, classNameOf } from '../errors';
import { canonicalObject, freezeSchema, ordered, referencedNames } from './canonical';
import { jsonSchemaPeer } from '../peers';
import { converters } from './converters';
import { analyseDto, isDtoCandidate, isNoArgs, type DtoClass, type DtoClosure } from './dto-model';
import { transformerStorage } from './metadata-sources';

/** A DTO analysed and described: what validation and the tool/output definitions need. */
export interface CompiledDto {
  readonly closure: DtoClosure;
  readonly schema: JsonSchema;
}

const cache = new WeakMap<object, CompiledDto>();

/** The empty-object schema of a tool without arguments. */
export const EMPTY_OBJECT_SCHEMA: JsonSchema = freezeSchema({
  type: 'object',
  properties: {},
  additionalProperties: false,
});

/**
 * The canonical JSON Schema of `dto`: `{ type: 'object', properties, required,
 * additionalProperties: false, description?, $defs? }`, nested DTOs under `$defs` (referenced as
 * `#/$defs/Name`). Frozen; cached per class. Throws a `ConfigError` (component `decorators`) for a
 * DTO that cannot be validated or described (see its kinds).
 */
export function dtoSchema(dto: new () => object): JsonSchema {
  return compileDto(dto, `the schema of ${classNameOf(dto)}`).schema;
}

/** Analyses and describes `dto` once (cached); `usedBy` names the use in error messages. */
export function compileDto(dto: unknown, usedBy: string): CompiledDto {
  if (!isDtoCandidate(dto)) {
    throw agentDefinitionError('invalid-dto', `${usedBy} needs a DTO class`, {
      className: classNameOf(dto),
      hint: 'pass a class decorated with class-validator decorators',
    });
  }
  const cached = cache.get(dto);
  if (cached !== undefined) return cached;
  const closure = analyseDto(dto, usedBy);
  const compiled: CompiledDto = Object.freeze({ closure, schema: schemaOf(closure, usedBy) });
  cache.set(dto, compiled);
  return compiled;
}

function schemaOf(closure: DtoClosure, usedBy: string): JsonSchema {
  if (isNoArgs(closure.root.dto)) return EMPTY_OBJECT_SCHEMA;
  const objects = new Map<string, Record<string, unknown>>();
  for (const model of closure.byClass.values()) {
    const generated = jsonSchemaPeer().targetConstructorToSchema(model.dto, {
      classTransformerMetadataStorage: transformerStorage(),
      refPointerPrefix: '#/$defs/',
      additionalConverters: converters(),
    }) as Record<string, unknown>;
    objects.set(model.name, canonicalObject(model, generated, usedBy));
  }
  const root = objects.get(closure.root.name) as Record<string, unknown>;
  const defs: Record<string, unknown> = {};
  const pending = [...referencedNames(root)];
  while (pending.length > 0) {
    const name = pending.shift() as string;
    if (name in defs) continue;
    const target = objects.get(name);
    if (target === undefined) {
      throw agentDefinitionError(
        'nested-without-type',
        `the schema references "${name}", which is not a nested DTO of ${closure.root.name}`,
        {
          className: closure.root.name,
          hint: 'nest DTOs with @ValidateNested() and @Type(() => X)',
        },
      );
    }
    defs[name] = target;
    pending.push(...referencedNames(target));
  }
  const sortedDefs = Object.fromEntries(
    Object.entries(defs).sort(([a], [b]) => a.localeCompare(b)),
  );
  const schema = Object.keys(sortedDefs).length > 0 ? { ...root, $defs: sortedDefs } : root;
  return freezeSchema(structuredClone(ordered(schema)));
}

export type { DtoClass };
