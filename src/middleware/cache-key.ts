import { createHash } from 'node:crypto';
import type { Message } from '../core/contract/message';
import type { ModelRequest } from '../core/contract/request';
import type { ModelCall } from '../core/engine/middleware';

/** Bumped when the normalisation below changes, so old entries stop matching. */
const KEY_VERSION = 1;

/**
 * The default response-cache key of a model call: the SHA-256 (hex) of a canonical JSON (object
 * keys sorted, `undefined` fields left out) of what decides the model's answer:
 *
 * - `model`: the wrapped model's name (`call.model`, e.g. `openai:gpt-4o-mini`), or `null`;
 * - `messages`, each with `role`, `content` (absent and empty are the same), `parts` (`kind`,
 *   `url`, `mediaType`, `name`, and inline bytes as their SHA-256), `toolCalls` (`name`, `args`,
 *   `id`), `toolCallId`, `toolName`, `thinking` (each block's `text`, or `redacted: true`), and
 *   the evidence of hosted tools (`type`, `status`, `input`, `output`) and `citations`;
 * - `tools` (`name`, `description`, `schema`, and `output` for the output tool), `outputSchema`,
 *   `hostedTools`;
 * - `settings`, every field but `cache` (settings with nothing else are the same as none).
 *
 * Left out because they do not change the answer: prompt-cache hints (`settings.cache`,
 * `Message.cachePoint`), provider-issued opaque evidence (thinking and tool-call signatures, the
 * provenance fields `provider`/`model`/`id` of thinking blocks, hosted tool call ids), response
 * ids (`Message.responseId`) and compaction items (the history keeps the messages they replaced).
 * Tool-call ids are renumbered by first appearance (`#0`, `#1`, …) in both `toolCalls[].id` and
 * `toolCallId`: which result answers which call is kept, the provider's random spelling is not.
 * The call's `scope` (owner, conversation, run) is NOT in the key: identical requests share
 * answers across users — give `namespace` or your own `key` to separate them.
 */
export function responseCacheKey(call: Pick<ModelCall, 'model' | 'request'>): string {
  return createHash('sha256')
    .update(canonicalJson(keyMaterial(call)))
    .digest('hex');
}

/** The normalised object {@link responseCacheKey} hashes. Internal. */
export function keyMaterial(call: Pick<ModelCall, 'model' | 'request'>): unknown {
  const request: ModelRequest = call.request;
  const aliases = new Map<string, string>();
  const alias = (id: unknown): unknown => {
    if (typeof id !== 'string') return id;
    let known = aliases.get(id);
    if (known === undefined) {
      known = `#${aliases.size}`;
      aliases.set(id, known);
    }
    return known;
  };
  const settings: Record<string, unknown> = { ...request.settings, cache: undefined };
  const hasSettings = Object.values(settings).some((value) => value !== undefined);
  return {
    v: KEY_VERSION,
    model: call.model ?? null,
    messages: request.messages.map((m) => messageMaterial(m, alias)),
    tools: request.tools.map((t) => ({
      name: t.name,
      description: t.description,
      schema: t.schema,
      output: t.output === true ? true : undefined,
    })),
    outputSchema: request.outputSchema,
    hostedTools: request.hostedTools,
    settings: hasSettings ? settings : undefined,
  };
}

function messageMaterial(message: Message, alias: (id: unknown) => unknown): unknown {
  return {
    role: message.role,
    content: message.content === '' ? undefined : message.content,
    parts: message.parts?.map((p) => ({
      kind: p.kind,
      url: p.url,
      mediaType: p.mediaType,
      name: p.name,
      data: p.data === undefined ? undefined : { sha256: digest(p.data) },
    })),
    toolCalls: message.toolCalls?.map((c) => ({ id: alias(c.id), name: c.name, args: c.args })),
    toolCallId: message.toolCallId === undefined ? undefined : alias(message.toolCallId),
    toolName: message.toolName,
    thinking: message.thinking?.map((b) =>
      b.redacted !== undefined && b.redacted !== '' ? { redacted: true } : { text: b.text },
    ),
    hostedToolCalls: message.hostedToolCalls?.map((h) => ({
      type: h.type,
      status: h.status,
      input: h.input,
      output: h.output,
    })),
    citations: message.citations,
  };
}

function digest(data: Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * JSON with object keys sorted at every depth and `undefined` fields dropped; bytes become their
 * SHA-256, non-finite numbers `null` (as in JSON). Throws `TypeError` on a cycle. Internal.
 */
export function canonicalJson(value: unknown): string {
  const seen = new Set<object>();
  const write = (v: unknown): string | undefined => {
    if (v === null) return 'null';
    switch (typeof v) {
      case 'string':
      case 'boolean':
        return JSON.stringify(v);
      case 'number':
        return Number.isFinite(v) ? JSON.stringify(v) : 'null';
      case 'bigint':
        return JSON.stringify(String(v));
      case 'object':
        break;
      default:
        return undefined;
    }
    const object = v;
    if (object instanceof Uint8Array) return JSON.stringify({ sha256: digest(object) });
    if (seen.has(object)) throw new TypeError('the request contains a cycle');
    seen.add(object);
    let text: string;
    if (Array.isArray(object)) {
      text = `[${object.map((item) => write(item) ?? 'null').join(',')}]`;
    } else {
      const fields: string[] = [];
      for (const key of Object.keys(object).sort()) {
        const field = write((object as Record<string, unknown>)[key]);
        if (field !== undefined) fields.push(`${JSON.stringify(key)}:${field}`);
      }
      text = `{${fields.join(',')}}`;
    }
    seen.delete(object);
    return text;
  };
  return write(value) ?? 'null';
}
