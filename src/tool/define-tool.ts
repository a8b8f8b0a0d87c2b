import type { JsonSchema } from '../model/json';
import type { ApprovalPolicy, Tool } from './tool';
import type { ToolContext } from './context';
import { ToolDefinitionError } from './errors';
import { isRecord } from '../model/guards';
import { describeError, showValue } from '../model/error-base';
import { ModelRetry } from '../model/errors';
import { timeoutProblem } from '../model/timeouts';

/** What {@link defineTool} accepts. */
export interface ToolDefinition<Deps, Args> {
  /** 1–64 characters of letters, digits, `_` or `-` (the portable subset every provider accepts). */
  name: string;
  description?: string;
  /** JSON Schema of the arguments: an object, or its JSON text. */
  schema: JsonSchema | string;
  /**
   * Turns the parsed, untrusted arguments into `Args` (a zod `parse`, a type guard…). Throw
   * `ModelRetry` — or any error, which is wrapped in one — to have the model correct them.
   */
  parse?: (args: unknown) => Args;
  execute: (args: Args, ctx: ToolContext<Deps>) => string | Promise<string>;
  maxRetries?: number;
  timeout?: number;
  sequential?: boolean;
  approval?: ApprovalPolicy<Deps>;
}

const NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** Builds a validated, frozen {@link Tool}. Throws {@link ToolDefinitionError} naming the fix. */
export function defineTool<Deps = unknown, Args = unknown>(
  definition: ToolDefinition<Deps, Args>,
): Tool<Deps> {
  if (!isRecord(definition)) {
    throw new ToolDefinitionError(
      '',
      'defineTool needs a definition object { name, schema, execute }',
    );
  }
  const raw = definition as Partial<ToolDefinition<Deps, Args>>;
  const name = raw.name;
  if (typeof name !== 'string' || name === '') {
    throw new ToolDefinitionError(
      '',
      'tool has no name: set `name` to 1–64 letters, digits, "_" or "-"',
    );
  }
  if (!NAME.test(name)) {
    throw new ToolDefinitionError(
      name,
      `tool "${name}": name must be 1–64 letters, digits, "_" or "-"`,
    );
  }
  const schema = normaliseSchema(name, raw.schema);
  if (typeof raw.execute !== 'function') {
    throw new ToolDefinitionError(
      name,
      `tool "${name}": missing \`execute\`; pass (args, ctx) => string`,
    );
  }
  checkNonNegative(name, 'maxRetries', raw.maxRetries, true);
  const timeoutIssue = raw.timeout === undefined ? undefined : timeoutProblem(raw.timeout);
  if (timeoutIssue !== undefined) {
    throw new ToolDefinitionError(
      name,
      `tool "${name}": \`timeout\` ${timeoutIssue}, got ${showValue(raw.timeout)}`,
    );
  }
  if (raw.description !== undefined && typeof raw.description !== 'string') {
    throw new ToolDefinitionError(name, `tool "${name}": \`description\` must be a string`);
  }
  const execute = raw.execute;
  const parse = raw.parse;
  const tool: Tool<Deps> = {
    name,
    description: raw.description ?? '',
    schema,
    execute:
      parse === undefined
        ? (args, ctx) => execute(args as Args, ctx)
        : (args, ctx) => execute(parseArgs(name, parse, args), ctx),
    ...(raw.maxRetries !== undefined && { maxRetries: raw.maxRetries }),
    ...(raw.timeout !== undefined && { timeout: raw.timeout }),
    ...(raw.sequential !== undefined && { sequential: raw.sequential }),
    ...(raw.approval !== undefined && { approval: raw.approval }),
  };
  return Object.freeze(tool);
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
    throw new ToolDefinitionError(
      name,
      `tool "${name}": missing \`schema\`; pass a JSON Schema object such as { type: 'object' }`,
    );
  }
  let value: unknown = schema;
  if (typeof schema === 'string') {
    try {
      value = JSON.parse(schema);
    } catch (cause) {
      throw new ToolDefinitionError(
        name,
        `tool "${name}": schema is not valid JSON (${(cause as Error).message}); pass a JSON Schema object`,
      );
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new ToolDefinitionError(
      name,
      `tool "${name}": schema must be a JSON object such as { type: 'object' }`,
    );
  }
  try {
    return Object.freeze(JSON.parse(JSON.stringify(value)) as JsonSchema);
  } catch (cause) {
    throw new ToolDefinitionError(
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
    throw new ToolDefinitionError(
      name,
      `tool "${name}": \`${field}\` must be a non-negative ${integer ? 'integer' : 'number'}, got ${showValue(value)}`,
    );
  }
}
