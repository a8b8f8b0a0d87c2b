import { ModelRetry, type JsonSchema, type StandardSchemaV1 } from '../../src/core/index';
import { agentDefinitionError, classNameOf } from '../errors';
import { classChain, readOwn } from '../metadata';
import { TOOL_NAME } from '../naming';
import { compileDto } from '../schema/dto-schema';
import { isDtoCandidate, isNoArgs, describeType } from '../schema/dto-model';
import { validationMetadataOf } from '../schema/metadata-sources';
import { toValidInstance } from '../validation/validate-dto';
import { WORKING_MEMORY_KEY, type WorkingMemoryRecord } from '../working-memory-decorator';

/**
 * A class's compiled `@WorkingMemory`: the options `new Memory({ workingMemory })` takes — a
 * Standard Schema validating with class-validator (the strict options tool arguments use) and
 * carrying the DTO's JSON Schema.
 */
export interface WorkingMemoryDefinition {
  /** The DTO class. */
  readonly dto: object;
  /** Validates a record into a plain object; issues are the `path: message` problems. */
  readonly schema: StandardSchemaV1<unknown, Record<string, unknown>>;
  /** The DTO's JSON Schema (the full record). */
  readonly jsonSchema: JsonSchema;
  readonly scope: 'owner' | 'thread';
  readonly toolName?: string;
}

const cache = new WeakMap<object, WorkingMemoryDefinition | null>();

/**
 * The `@WorkingMemory` of an agent class (its own, else the nearest base's), compiled once;
 * `undefined` without one. Declaration mistakes are `ConfigError`s (component `decorators`).
 */
export function workingMemoryOf(agentClass: object): WorkingMemoryDefinition | undefined {
  const cached = cache.get(agentClass);
  if (cached !== undefined) return cached ?? undefined;
  let found: { record: WorkingMemoryRecord; owner: object } | undefined;
  for (const owner of classChain(agentClass).reverse()) {
    const record = readOwn(WORKING_MEMORY_KEY, owner) as WorkingMemoryRecord | undefined;
    if (record !== undefined) {
      found = { record, owner };
      break;
    }
  }
  const compiled = found === undefined ? undefined : compile(found.record, found.owner);
  cache.set(agentClass, compiled ?? null);
  return compiled;
}

function compile(record: WorkingMemoryRecord, owner: object): WorkingMemoryDefinition {
  const className = classNameOf(owner);
  const fail = (message: string, hint: string) =>
    agentDefinitionError('invalid-dto', message, { className, hint });
  const { dto, options } = record;
  if (!isDtoCandidate(dto) || isNoArgs(dto) || validationMetadataOf(dto).length === 0)
    throw fail(
      `@WorkingMemory got ${describeType(dto)}, not a DTO class with class-validator decorators`,
      'pass a class whose properties are decorated (e.g. @IsOptional() @IsString())',
    );
  const scope: unknown = options.scope ?? 'owner';
  if (scope !== 'owner' && scope !== 'thread')
    throw fail(
      `@WorkingMemory scope ${JSON.stringify(scope)} is unknown`,
      "use 'owner' or 'thread'",
    );
  if (options.toolName !== undefined && !TOOL_NAME.test(options.toolName))
    throw fail(
      `@WorkingMemory toolName ${JSON.stringify(options.toolName)} is not 1–64 letters, digits, "_" or "-"`,
      "set a valid name, e.g. { toolName: 'remember_profile' }",
    );
  const subject = `the working memory of ${className}`;
  const compiled = compileDto(dto, subject);
  const jsonSchema = compiled.schema;
  const validate = (value: unknown): StandardSchemaV1.Result<Record<string, unknown>> => {
    try {
      const instance = toValidInstance(compiled, value, 'the working memory');
      return { value: JSON.parse(JSON.stringify(instance)) as Record<string, unknown> };
    } catch (error) {
      if (ModelRetry.is(error)) return { issues: [{ message: error.reason }] };
      throw error;
    }
  };
  if (validate({}).issues !== undefined)
    throw fail(
      `${classNameOf(dto)} rejects an empty record, and working memory starts empty`,
      'mark every property @IsOptional()',
    );
  const schema: StandardSchemaV1<unknown, Record<string, unknown>> = {
    '~standard': {
      version: 1,
      vendor: 'golem-decorators',
      validate,
      // Standard JSON Schema: jsonSchemaOf reads the DTO's schema from here.
      jsonSchema: { input: () => jsonSchema, output: () => jsonSchema },
    } as StandardSchemaV1.Props<unknown, Record<string, unknown>>,
  };
  return Object.freeze({
    dto,
    schema,
    jsonSchema,
    scope,
    ...(options.toolName !== undefined && { toolName: options.toolName }),
  });
}
