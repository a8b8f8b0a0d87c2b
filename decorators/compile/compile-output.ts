import { agentDefinitionError, classNameOf } from '../errors';
import type { ConfigError } from '../../src/core/index';
import { classChain, METADATA_KEYS, readOwn, type OutputRecord } from '../metadata';
import { TOOL_NAME } from '../naming';
import { freezeSchema } from '../schema/canonical';
import { compileDto } from '../schema/dto-schema';
import { describeType, isDtoCandidate, isNoArgs } from '../schema/dto-model';
import { validationMetadataOf } from '../schema/metadata-sources';
import { shapePlanOf } from '../validation/shape-plan';
import { toValidInstance } from '../validation/validate-dto';
import type { OutputDefinitionInfo } from './definition';

/** The default name of the output tool (tool mode). */
export const DEFAULT_OUTPUT_TOOL = 'final_result';

/** The `@Output` of `ctor` (its own, else the nearest base's), compiled; `undefined` for text output. */
export function compileOutput(ctor: object): OutputDefinitionInfo | undefined {
  let found: { record: OutputRecord; owner: object } | undefined;
  for (const owner of classChain(ctor).reverse()) {
    const record = readOwn(METADATA_KEYS.output, owner) as OutputRecord | undefined;
    if (record !== undefined) {
      found = { record, owner };
      break;
    }
  }
  if (found === undefined) return undefined;
  const { record, owner } = found;
  const className = classNameOf(owner);
  const fail = (message: string, hint: string): ConfigError =>
    agentDefinitionError('invalid-output', message, { className, hint });
  if (record.count > 1) throw fail('@Output is declared twice', 'keep one @Output per class');
  const dto = record.dto;
  if (!isDtoCandidate(dto) || isNoArgs(dto)) {
    throw fail(
      `@Output got ${describeType(dto)}, not a DTO class`,
      dto === undefined
        ? 'the class is undefined when @Output runs: declare it before the agent, or break the circular import'
        : 'pass a class decorated with class-validator decorators (for text output, leave @Output out)',
    );
  }
  if (validationMetadataOf(dto).length === 0) {
    throw fail(
      `the output class ${classNameOf(dto)} has no class-validator decorators`,
      'decorate each property (e.g. @IsString(), @IsInt()) so the output can be validated',
    );
  }
  const { options } = record;
  const mode: unknown = options.mode ?? 'native';
  if (mode !== 'native' && mode !== 'tool') {
    throw fail(`@Output mode ${JSON.stringify(mode)} is unknown`, "use 'native' or 'tool'");
  }
  const name = options.name ?? DEFAULT_OUTPUT_TOOL;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw fail(
      `output tool name ${JSON.stringify(name)} is not 1–64 letters, digits, "_" or "-"`,
      "set a valid name: @Output(Dto, { mode: 'tool', name: 'record_result' })",
    );
  }
  if (options.description !== undefined && typeof options.description !== 'string') {
    throw fail('@Output description is not a string', 'pass text');
  }
  const compiled = compileDto(dto, `the output of ${className}`);
  shapePlanOf(compiled.closure, `the output of ${className}`); // arity mistakes are definition errors
  const base = options.schema ?? compiled.schema;
  if (typeof base !== 'object' || Array.isArray(base)) {
    throw fail('@Output schema is not a JSON Schema object', 'pass the schema object');
  }
  const schema = freezeSchema(
    structuredClone(
      options.description === undefined ? base : { ...base, description: options.description },
    ),
  );
  return Object.freeze({
    dto,
    mode,
    name,
    description: options.description,
    schema,
    parse: (value: unknown): object => toValidInstance(compiled, value, 'the output'),
  });
}
