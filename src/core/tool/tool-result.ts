import { describeError } from '../kit/error-base';
import { ToolResultError } from './errors';

/** `JSON.stringify`, typed as it behaves: `undefined` for values with no JSON form. */
const stringify: (value: unknown) => string | undefined = JSON.stringify;

/**
 * What a tool's return value becomes in the tool message: a string as-is, `undefined` (a `void`
 * tool) as `''`, anything else as its JSON text (`JSON.stringify`: `toJSON` honoured, `undefined`
 * and function members of objects dropped). A value with no JSON form — a function, a symbol, a
 * `bigint`, a cycle, a throwing `toJSON` — is a `ToolResultError` naming the tool.
 * `defineTool` tools and decorated `@Tool` methods both render through this.
 */
export function renderToolResult(toolName: string, value: unknown): string {
  if (typeof value === 'string') return value;
  if (value === undefined) return '';
  let text: string | undefined;
  try {
    text = stringify(value);
  } catch (cause) {
    throw new ToolResultError(
      toolName,
      `tool "${toolName}" returned a value that cannot be encoded as JSON (${firstLine(describeError(cause))}); return a string or a JSON-serialisable value`,
      { cause },
    );
  }
  if (text === undefined) {
    const kind = typeof value;
    throw new ToolResultError(
      toolName,
      `tool "${toolName}" returned ${/^[aeiou]/.test(kind) ? 'an' : 'a'} ${kind}, which has no JSON form; return a string or a JSON-serialisable value`,
    );
  }
  return text;
}

/** V8's cycle report spans lines (the path of the cycle); its first line says what happened. */
function firstLine(text: string): string {
  return text.split('\n', 1)[0] ?? text;
}
