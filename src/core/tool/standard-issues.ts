import { ModelRetry } from '../errors/errors';
import { clipMessage, pathJoin } from '../kit/problem-text';
import { isObjectLike, safeArray, safeGet } from '../kit/safe-inspect';
import type { StandardSchemaV1 } from './standard-schema';
import { standardSchemaError, vendorOf } from './standard-schema';

/** Most problems listed in one rejection; the rest are counted. */
const MAX_PROBLEMS = 10;

/**
 * Validates `value` with a Standard Schema (awaiting an async one) and returns the typed result.
 * Issues become a {@link ModelRetry} listing `path: message` problems (`city: expected string;
 * days[0]: too big`), never a library's JSON dump. A `ModelRetry` thrown inside the schema (a
 * refinement) passes through; any other throw propagates unchanged, as the bug it is.
 */
export async function validateWithSchema<O>(
  schema: StandardSchemaV1<unknown, O>,
  value: unknown,
): Promise<O> {
  return validated(schema, await schema['~standard'].validate(value));
}

/**
 * {@link validateWithSchema} without a promise when the schema validates synchronously (zod
 * without async refinements, valibot, arktype): the value, or a synchronous throw; a schema that
 * returns a promise gives a promise. Internal (the engine's tool and output paths).
 */
export function validateNow<O>(
  schema: StandardSchemaV1<unknown, O>,
  value: unknown,
): O | Promise<O> {
  const result: unknown = schema['~standard'].validate(value);
  // As `await` would: any thenable is awaited (reading a throwing `then` throws here).
  if (isObjectLike(result) && typeof (result as { then?: unknown }).then === 'function')
    return Promise.resolve(result).then((r: unknown) => validated(schema, r));
  return validated(schema, result);
}

/** A Standard Schema's validation result as the typed value, or the `ModelRetry` of its issues. */
function validated<O>(schema: StandardSchemaV1<unknown, O>, result: unknown): O {
  if (!isObjectLike(result)) {
    throw standardSchemaError(
      vendorOf(schema),
      `the ${vendorOf(schema)} schema's validate returned ${result === null ? 'null' : typeof result}, not { value } or { issues }; it does not implement Standard Schema v1`,
    );
  }
  // Read by name, not through `safeGet`'s computed key: each call site stays monomorphic on its
  // library's result shape (this runs for every validated tool call and output).
  let issues: unknown;
  try {
    issues = (result as { issues?: unknown }).issues;
  } catch {
    issues = undefined;
  }
  if (issues !== undefined) throw new ModelRetry(issuesText(safeArray(issues)));
  try {
    return (result as { value?: unknown }).value as O;
  } catch {
    return undefined as O;
  }
}

/**
 * Issues as one concise line for the model: `path: message` problems joined by `; `, at most ten
 * (`…; and 3 more`), duplicates dropped, whitespace runs collapsed, messages clipped to 200
 * characters and hostile keys to 40.
 */
export function issuesText(issues: readonly unknown[]): string {
  const lines: string[] = [];
  for (const issue of issues) {
    const line = issueLine(issue);
    if (!lines.includes(line)) lines.push(line);
  }
  if (lines.length === 0) return 'the value is invalid';
  const more = lines.length - MAX_PROBLEMS;
  const shown = lines.slice(0, MAX_PROBLEMS).join('; ');
  return more > 0 ? `${shown}; and ${more} more` : shown;
}

function issueLine(issue: unknown): string {
  const raw = safeGet(issue, 'message');
  const text = typeof raw === 'string' ? raw.replace(/\s+/g, ' ').trim() : '';
  let message = text === '' ? 'is invalid' : text;
  const path = pathText(safeArray(safeGet(issue, 'path')));
  if (path === '') return clipMessage(message);
  // Some libraries (arktype) already start the message with the path: say it once.
  if (message.startsWith(`${path} `)) message = message.slice(path.length + 1);
  return `${path}: ${clipMessage(message)}`;
}

/** `a.b[0]["odd key"]` from a Standard Schema path (plain keys or `{ key }` segments). */
export function pathText(path: readonly unknown[]): string {
  let text = '';
  for (const segment of path) {
    const key: unknown = isObjectLike(segment) ? safeGet(segment, 'key') : segment;
    text = pathJoin(text, key);
  }
  return text;
}
