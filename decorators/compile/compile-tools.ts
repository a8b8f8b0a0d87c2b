import { ConfigError, defineTool } from '../../src/core/index';
import type { Tool, ToolDefinition } from '../../src/core/index';
import { agentDefinitionError, classNameOf, memberName } from '../errors';
import { classChain, METADATA_KEYS, readOwn, type ToolRecord } from '../metadata';
import { snakeCase, TOOL_NAME } from '../naming';
import { compileDto } from '../schema/dto-schema';
import { isNoArgs } from '../schema/dto-model';
import { shapePlanOf } from '../validation/shape-plan';
import { toValidInstance } from '../validation/validate-dto';
import type { ToolDefinitionInfo } from './definition';
import { methodOf } from './member';
import { toolArgsOf } from './tool-args';

interface Declared {
  readonly record: ToolRecord;
  readonly owner: object;
}

/**
 * The tools of `ctor` and its bases. A subclass's `@Tool` on a method its base also decorated
 * replaces the base's declaration (same position); its other tools follow the inherited ones.
 * Two tools with one name are a `duplicate-tool` error.
 */
export function compileTools(ctor: object): ToolDefinitionInfo[] {
  const declared = new Map<string | symbol, Declared>();
  for (const owner of classChain(ctor)) {
    const seen = new Set<string | symbol>();
    const records = (readOwn(METADATA_KEYS.tools, owner) ?? []) as readonly ToolRecord[];
    for (const record of records) {
      if (seen.has(record.member)) {
        throw agentDefinitionError('duplicate-tool', '@Tool() is applied twice', {
          className: classNameOf(owner),
          member: memberName(record.member),
          hint: 'keep one @Tool() per method',
        });
      }
      seen.add(record.member);
      declared.set(record.member, { record, owner });
    }
  }
  const tools: ToolDefinitionInfo[] = [];
  const byName = new Map<string, Declared>();
  for (const entry of declared.values()) {
    const tool = compileTool(entry);
    const clash = byName.get(tool.name);
    if (clash !== undefined) {
      throw agentDefinitionError(
        'duplicate-tool',
        `tool "${tool.name}" is declared twice: by ${classNameOf(clash.owner)}.${memberName(clash.record.member)} and by ${classNameOf(entry.owner)}.${memberName(entry.record.member)}`,
        {
          className: classNameOf(ctor),
          member: memberName(entry.record.member),
          hint: 'give one of them another name: @Tool({ name: "…" })',
        },
      );
    }
    byName.set(tool.name, entry);
    tools.push(tool);
  }
  return tools;
}

function compileTool({ record, owner }: Declared): ToolDefinitionInfo {
  const { member, options } = record;
  const className = classNameOf(owner);
  const where = { className, member: memberName(member) };
  const method = methodOf(owner, member, record.isStatic, '@Tool()');
  if (typeof member === 'symbol' && options.name === undefined) {
    throw agentDefinitionError('tool-on-symbol', '@Tool() is on a symbol-keyed method', {
      ...where,
      hint: 'give the tool a name: @Tool({ name: "search" })',
    });
  }
  const name = options.name ?? snakeCase(member as string);
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    throw agentDefinitionError(
      'invalid-tool-name',
      `tool name ${JSON.stringify(name)} is not 1–64 letters, digits, "_" or "-"`,
      { ...where, hint: 'set a valid name: @Tool({ name: "get_weather" })' },
    );
  }
  const args = toolArgsOf(owner, member, method, options.args);
  const usedBy = `the arguments of ${className}.${memberName(member)}`;
  const compiled = compileDto(args, usedBy);
  shapePlanOf(compiled.closure, usedBy); // arity mistakes are definition errors
  const schema = options.schema ?? compiled.schema;
  const parse = (value: unknown): object => toValidInstance(compiled, value, 'the arguments');
  const checked = checkWithEngine(where, {
    name,
    schema,
    description: options.description,
    timeout: options.timeout,
    maxRetries: options.maxRetries,
    sequential: options.sequential,
    idempotent: options.idempotent,
    execute: () => '',
  });
  const approval = options.approval as ToolDefinitionInfo['approval'];
  return Object.freeze({
    name,
    member,
    declaredBy: className,
    description: options.description ?? '',
    schema: checked.schema,
    args: isNoArgs(args) ? undefined : args,
    ...(options.timeout !== undefined && { timeout: options.timeout }),
    ...(options.maxRetries !== undefined && { maxRetries: options.maxRetries }),
    ...(options.sequential !== undefined && { sequential: options.sequential }),
    ...(options.idempotent !== undefined && { idempotent: options.idempotent }),
    ...(approval !== undefined && { approval }),
    parse,
  });
}

/** Runs the engine's own tool validation (schema, description, limits) at definition time. */
function checkWithEngine(
  where: { className: string; member: string },
  definition: ToolDefinition<unknown, unknown>,
): Tool {
  try {
    return defineTool(definition);
  } catch (cause) {
    if (!ConfigError.is(cause, 'tool')) throw cause;
    throw agentDefinitionError('invalid-option', cause.message, {
      ...where,
      hint: 'fix the @Tool() options',
      cause,
    });
  }
}
