import { createHash } from 'node:crypto';
import { isRecord } from '../core/kit/guards';
import type { JsonSchema } from '../core/kit/json';

/** One tool as the server advertises it (untrusted text, shown to the model once bridged). */
export interface McpToolDefinition {
  /** The server's name for the tool. */
  readonly name: string;
  readonly description: string;
  /** The server's input schema, verbatim. */
  readonly inputSchema: JsonSchema;
  /** SHA-256 of the canonical JSON of name, description and input schema. */
  readonly hash: string;
  /**
   * Whether the tool runs as an MCP task (`execution.taskSupport`): `required` tools are called
   * through the task flow (see `taskTools`), `optional` and absent ones with a plain call.
   */
  readonly taskSupport?: 'required' | 'optional' | 'forbidden';
}

/** How a server tool differs from the approved definitions. */
export interface McpToolChange {
  readonly kind: 'added' | 'removed' | 'changed';
  /** The server's name for the tool. */
  readonly name: string;
  /** The approved definition (absent for `added`). */
  readonly before?: McpToolDefinition;
  /** The current definition (absent for `removed`). */
  readonly after?: McpToolDefinition;
}

/** Deepest nesting accepted in a definition (hostile schemas cannot exhaust the stack). */
export const MAX_SCHEMA_DEPTH = 64;

/** JSON text with object keys sorted at every level, so equal values hash equally. */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_SCHEMA_DEPTH) throw new Error(`nested deeper than ${MAX_SCHEMA_DEPTH} levels`);
  if (Array.isArray(value)) return `[${value.map((v) => canonicalJson(v, depth + 1)).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson(value[k], depth + 1)}`).join(',')}}`;
  }
  const text = JSON.stringify(value) as string | undefined;
  return text ?? 'null';
}

/** Builds a definition with its pinning hash. */
export function toolDefinition(
  name: string,
  description: string,
  inputSchema: JsonSchema,
  taskSupport?: McpToolDefinition['taskSupport'],
): McpToolDefinition {
  const hash = createHash('sha256')
    .update(canonicalJson({ name, description, inputSchema }))
    .digest('hex');
  return Object.freeze({
    name,
    description,
    inputSchema,
    hash,
    ...(taskSupport !== undefined && { taskSupport }),
  });
}

/** Differences of `current` from `approved`, in the server's order (removed ones last). */
export function diffDefinitions(
  approved: ReadonlyMap<string, McpToolDefinition>,
  current: ReadonlyMap<string, McpToolDefinition>,
): McpToolChange[] {
  const changes: McpToolChange[] = [];
  for (const [name, after] of current) {
    const before = approved.get(name);
    if (before === undefined) changes.push({ kind: 'added', name, after });
    else if (before.hash !== after.hash) changes.push({ kind: 'changed', name, before, after });
  }
  for (const [name, before] of approved) {
    if (!current.has(name)) changes.push({ kind: 'removed', name, before });
  }
  return changes;
}
