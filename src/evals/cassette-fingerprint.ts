import { createHash } from 'node:crypto';
import { encodeMessages } from '../core/index';
import type { Message, ModelRequest } from '../core/index';
import { scrubSecrets } from '../core/kit/scrub-secrets';

/**
 * JSON text of `value` with object keys sorted, `undefined` fields (and functions, symbols) left
 * out as `JSON.stringify` does: equal values give equal text.
 */
export function canonicalJson(value: unknown): string {
  const text: unknown = JSON.stringify(sortKeys(value));
  return typeof text === 'string' ? text : 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => sortKeys(item) ?? null);
  if (typeof value !== 'object' || value === null) return value;
  const toJSON = (value as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') return sortKeys((toJSON as () => unknown).call(value));
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value).sort()) {
    out[key] = sortKeys((value as Record<string, unknown>)[key]);
  }
  return out;
}

/**
 * The fingerprint of a model request: the sha256 (hex) of the canonical JSON of its messages (in
 * the durable codec), tools, output schema and settings. A replay in `strict` mode requires it to
 * equal the recorded one.
 */
export function requestFingerprint(request: ModelRequest): string {
  const material = {
    messages: JSON.parse(encodeMessages(request.messages)) as unknown,
    tools: request.tools,
    outputSchema: request.outputSchema,
    settings: request.settings,
  };
  return createHash('sha256').update(canonicalJson(material), 'utf8').digest('hex');
}

/** Longest excerpt of the last message kept in a cassette (for people reading the file). */
const EXCERPT = 200;

/**
 * A readable summary of a request: its message count and an excerpt of the last message (with
 * credential shapes scrubbed).
 */
export function requestSummary(request: ModelRequest): { messages: number; last: string } {
  const last = request.messages[request.messages.length - 1];
  return { messages: request.messages.length, last: excerpt(last) };
}

function excerpt(message: Message | undefined): string {
  if (message === undefined) return '';
  const text =
    message.content ??
    (message.toolCalls !== undefined ? message.toolCalls.map((c) => c.name).join(', ') : '');
  // Credential shapes (a key a tool echoed) never reach the file's readable excerpt.
  const head = scrubSecrets(
    message.role === 'tool' ? `[${message.toolName ?? 'tool'}] ${text}` : text,
    [],
  );
  return head.length <= EXCERPT ? head : `${head.slice(0, EXCERPT - 1)}…`;
}
