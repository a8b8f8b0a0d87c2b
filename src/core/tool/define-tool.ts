import type { JsonSchema } from '../kit/json';
import type { ApprovalPolicy, Tool } from './tool';
import type { ToolContext } from './context';
import { toolDefinitionError } from './errors';
import { isRecord } from '../kit/guards';
import { describeError, showValue } from '../kit/error-base';
import { ModelRetry } from '../errors/errors';
import { safeGet } from '../kit/safe-inspect';
import { timeoutProblem } from '../kit/timeouts';
import { jsonSchemaOf } from './standard-json-schema';
import { validateNow } from './standard-issues';
import { isStandardSchema, isStandardSchemaError, type StandardSchemaV1 } from './standard-schema';
import { renderToolResult } from './tool-result';
import { registerToolValidation } from './validation';

/** What every tool definition has, whichever way its arguments are declared. */
export interface ToolDefinitionBase<Deps, Args> {
  /** 1–64 characters of letters, digits, `_` or `-` (the portable subset every provider accepts). */
  name: string;
  /** What the tool does, for the model; default `''`. */
  description?: string;
  /**
   * Runs the call. Return any JSON value (or a promise of one): a string reaches the model as-is,
   * `undefined` as `''`, anything else as its JSON text; a value with no JSON form fails the run
   * at the `tool` stage (`ToolResultError`). Throw `ModelRetry` to have the model correct the call.
   */
  execute: (args: Args, ctx: ToolContext<Deps>) => unknown;
  /** This tool's correction budget; overrides the agent's `toolRetries`. */
  maxRetries?: number;
  /** Per-execution deadline in ms; overrides the agent's `toolTimeout`; 0 = the agent's. */
  timeout?: number;
  /** Under parallel execution, this tool runs alone (a barrier). */
  sequential?: boolean;
  /** Human approval policy (the agent needs `deferredTools: true`). */
  approval?: ApprovalPolicy<Deps>;
  /** Safe to run twice (re-run when a stored run resumes after a crash); default `false`. */
  idempotent?: boolean;
}

/** A tool whose arguments are declared by a JSON Schema, optionally checked by `parse`. */
export interface JsonSchemaToolDefinition<Deps, Args> extends ToolDefinitionBase<Deps, Args> {
  /** JSON Schema of the arguments: an object, or its JSON text. */
  schema: JsonSchema | string;
  /**
   * Turns the parsed, untrusted arguments into `Args` (a zod `parse`, a type guard…). Throw
   * `ModelRetry` — or any error, which is wrapped in one — to have the model correct them.
   */
  parse?: (args: unknown) => Args;
  /** Not with `schema` + `parse`: a Standard Schema goes in `args` instead. */
  args?: undefined;
}

/**
 * A tool whose arguments are declared by a Standard Schema (zod 4, valibot, arktype): the JSON
 * Schema advertised to the model is derived from it ({@link jsonSchemaOf}), the arguments are
 * validated with it (async validators included), and `Args` is its output type.
 */
export interface SchemaToolDefinition<Deps, Args> extends ToolDefinitionBase<Deps, Args> {
  /** Validates the arguments; issues become a `ModelRetry` listing `path: message` problems. */
  args: StandardSchemaV1<unknown, Args>;
  /** Advertised instead of the derived JSON Schema (the arguments are still validated by `args`). */
  schema?: JsonSchema | string;
  /** Not with `args`: the Standard Schema validates. */
  parse?: undefined;
}

/** What {@link defineTool} accepts: arguments declared by a JSON Schema or by a Standard Schema. */
export type ToolDefinition<Deps, Args> =
  JsonSchemaToolDefinition<Deps, Args> | SchemaToolDefinition<Deps, Args>;

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Builds a validated, frozen {@link Tool}. Throws a `ConfigError` (component `tool`) naming the fix. */
export function defineTool<Deps = unknown, Args = unknown>(
  definition: ToolDefinition<Deps, Args>,
): Tool<Deps> {
  if (!isRecord(definition)) {
    throw toolDefinitionError('', 'defineTool needs a definition object { name, schema, execute }');
  }
  const raw = definition as Partial<ToolDefinitionBase<Deps, Args>> & {
    schema?: unknown;
    parse?: (args: unknown) => Args;
    args?: unknown;
  };
  const name = raw.name;
  if (typeof name !== 'string' || name === '') {
    throw toolDefinitionError(
      '',
      'tool has no name: set `name` to 1–64 letters, digits, "_" or "-"',
    );
  }
  if (!NAME.test(name)) {
    throw toolDefinitionError(
      name,
      `tool "${name}": name must be 1–64 letters, digits, "_" or "-"`,
    );
  }
  const argsSchema = standardArgs<Args>(name, raw);
  const schema = normaliseSchema(
    name,
    argsSchema === undefined || raw.schema !== undefined
      ? raw.schema
      : derivedSchema(name, argsSchema),
  );
  if (typeof raw.execute !== 'function') {
    throw toolDefinitionError(
      name,
      `tool "${name}": missing \`execute\`; pass (args, ctx) => a string or a JSON value`,
    );
  }
  checkNonNegative(name, 'maxRetries', raw.maxRetries, true);
  const timeoutIssue = raw.timeout === undefined ? undefined : timeoutProblem(raw.timeout);
  if (timeoutIssue !== undefined) {
    throw toolDefinitionError(
      name,
      `tool "${name}": \`timeout\` ${timeoutIssue}, got ${showValue(raw.timeout)}`,
    );
  }
  if (raw.idempotent !== undefined && typeof raw.idempotent !== 'boolean') {
    throw toolDefinitionError(name, `tool "${name}": \`idempotent\` must be true or false`);
  }
  if (raw.description !== undefined && typeof raw.description !== 'string') {
    throw toolDefinitionError(name, `tool "${name}": \`description\` must be a string`);
  }
  const execute = raw.execute;
  const parse = raw.parse;
  const run = (args: Args, ctx: ToolContext<Deps>): string | Promise<string> =>
    rendered(name, execute(args, ctx));
  const toolExecute: Tool<Deps>['execute'] =
    argsSchema !== undefined
      ? (args, ctx) => {
          // No promise per call when the schema validates synchronously (the common case).
          const valid = checkArgs(name, argsSchema, args);
          return valid instanceof Promise ? valid.then((v) => run(v, ctx)) : run(valid, ctx);
        }
      : parse === undefined
        ? (args, ctx) => run(args as Args, ctx)
        : (args, ctx) => run(parseArgs(name, parse, args), ctx);
  const validate =
    argsSchema !== undefined
      ? (args: unknown) => checkArgs(name, argsSchema, args)
      : parse === undefined
        ? undefined
        : (args: unknown) => parseArgs(name, parse, args);
  if (validate !== undefined)
    registerToolValidation(toolExecute, {
      validate,
      run: (args, ctx) => run(args as Args, ctx),
    });
  const tool: Tool<Deps> = {
    name,
    description: raw.description ?? '',
    schema,
    execute: toolExecute,
    ...(raw.maxRetries !== undefined && { maxRetries: raw.maxRetries }),
    ...(raw.timeout !== undefined && { timeout: raw.timeout }),
    ...(raw.sequential !== undefined && { sequential: raw.sequential }),
    ...(raw.approval !== undefined && { approval: raw.approval }),
    ...(raw.idempotent !== undefined && { idempotent: raw.idempotent }),
  };
  return Object.freeze(tool);
}

/** The `args` Standard Schema, checked; `undefined` when the tool declares a JSON Schema. */
function standardArgs<Args>(
  name: string,
  raw: { args?: unknown; parse?: unknown },
): StandardSchemaV1<unknown, Args> | undefined {
  const { args } = raw;
  if (args === undefined) return undefined;
  if (!isStandardSchema(args)) {
    throw toolDefinitionError(
      name,
      `tool "${name}": \`args\` must be a Standard Schema (a zod 4, valibot or arktype schema), got ${showValue(args)}; for a JSON Schema use \`schema\``,
    );
  }
  if (raw.parse !== undefined) {
    throw toolDefinitionError(
      name,
      `tool "${name}": \`args\` and \`parse\` are exclusive (the Standard Schema validates the arguments); drop \`parse\``,
    );
  }
  return args as StandardSchemaV1<unknown, Args>;
}

function derivedSchema(name: string, args: StandardSchemaV1): JsonSchema {
  try {
    return jsonSchemaOf(args);
  } catch (cause) {
    if (!isStandardSchemaError(cause)) throw cause;
    throw toolDefinitionError(name, `tool "${name}": ${cause.message}`, { cause });
  }
}

/**
 * Validates with the `args` schema: issues are a `ModelRetry` (from {@link validateNow}); a throw
 * inside the schema is wrapped in one like a `parse` failure; a broken contract propagates.
 * Synchronous when the schema is; a promise when it validates asynchronously.
 */
function checkArgs<Args>(
  name: string,
  schema: StandardSchemaV1<unknown, Args>,
  args: unknown,
): Args | Promise<Args> {
  try {
    const valid = validateNow(schema, args);
    return valid instanceof Promise
      ? valid.catch((cause: unknown) => {
          throw argsFailure(name, cause);
        })
      : valid;
  } catch (cause) {
    throw argsFailure(name, cause);
  }
}

/** What a failed `args` validation throws: its `ModelRetry` (or broken contract), else one. */
function argsFailure(name: string, cause: unknown): unknown {
  if (ModelRetry.is(cause) || isStandardSchemaError(cause)) return cause;
  return new ModelRetry(`invalid arguments for ${name}: ${describeError(cause)}`, { cause });
}

/** A return value as the tool message's text; a promise stays a promise, a plain value does not. */
function rendered(name: string, out: unknown): string | Promise<string> {
  if (typeof safeGet(out, 'then') === 'function')
    return Promise.resolve(out).then((value: unknown) => renderToolResult(name, value));
  return renderToolResult(name, out);
}

/** Runs a `parse` hook; any failure other than a `ModelRetry` becomes one, so the model can fix it. */
function parseArgs<Args>(name: string, parse: (args: unknown) => Args, args: unknown): Args {
  try {
    return parse(args);
  } catch (cause) {
    if (ModelRetry.is(cause)) throw cause;
    throw new ModelRetry(`invalid arguments for ${name}: ${describeError(cause)}`, { cause });
  }
}

function normaliseSchema(name: string, schema: unknown): JsonSchema {
  if (schema === undefined || schema === null || schema === '') {
    throw toolDefinitionError(
      name,
      `tool "${name}": missing \`schema\`; pass a JSON Schema object such as { type: 'object' }`,
    );
  }
  let value: unknown = schema;
  if (typeof schema === 'string') {
    try {
      value = JSON.parse(schema);
    } catch (cause) {
      throw toolDefinitionError(
        name,
        `tool "${name}": schema is not valid JSON (${(cause as Error).message}); pass a JSON Schema object`,
      );
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw toolDefinitionError(
      name,
      `tool "${name}": schema must be a JSON object such as { type: 'object' }`,
    );
  }
  try {
    return Object.freeze(JSON.parse(JSON.stringify(value)) as JsonSchema);
  } catch (cause) {
    throw toolDefinitionError(
      name,
      `tool "${name}": schema is not JSON-serialisable (${(cause as Error).message})`,
    );
  }
}

function checkNonNegative(name: string, field: string, value: unknown, integer: boolean): void {
  if (value === undefined) return;
  if (
    typeof value !== 'number' ||
    !Number.isFinite(value) ||
    value < 0 ||
    (integer && !Number.isInteger(value))
  ) {
    throw toolDefinitionError(
      name,
      `tool "${name}": \`${field}\` must be a non-negative ${integer ? 'integer' : 'number'}, got ${showValue(value)}`,
    );
  }
}
