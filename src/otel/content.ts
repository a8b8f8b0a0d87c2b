import type { Message } from '../core/contract/message';
import type { Part } from '../core/contract/part';
import { scrubSecrets as scrub } from '../core/kit/scrub-secrets';

/** How captured content is bounded and cleaned. */
export interface ContentLimits {
  /** Longest attribute value in characters (a JSON text); longer content is truncated. */
  readonly maxLength: number;
  /** Secrets removed from every captured string (well-known key shapes are always removed). */
  readonly secrets: readonly string[];
}

/** One message part in the convention's JSON shape. */
type OtelPart = Record<string, unknown>;

/** One message in the convention's JSON shape. */
interface OtelMessage {
  role: string;
  parts: OtelPart[];
  finish_reason?: string;
}

/** The captured content of a request: its instructions and its other messages. */
export interface CapturedInput {
  /** `gen_ai.system_instructions`, when the request has a system message. */
  readonly system: string | undefined;
  /** `gen_ai.input.messages`. */
  readonly messages: string;
}

/**
 * A request's messages as the convention's `gen_ai.system_instructions` (the system messages'
 * text parts) and `gen_ai.input.messages` (the rest, in order), as JSON text within the limits.
 */
export function captureInput(messages: readonly Message[], limits: ContentLimits): CapturedInput {
  const system: OtelPart[] = [];
  const others: OtelMessage[] = [];
  for (const message of messages) {
    if (message.role === 'system') {
      if (message.content !== undefined && message.content !== '')
        system.push({ type: 'text', content: message.content });
      continue;
    }
    others.push(otelMessage(message));
  }
  return {
    system: system.length === 0 ? undefined : fit(system, limits, false),
    messages: fit(others, limits, true),
  };
}

/** The model's answer as the convention's `gen_ai.output.messages` JSON text. */
export function captureOutput(
  message: Message,
  finishReason: string | undefined,
  limits: ContentLimits,
): string {
  const out = otelMessage(message);
  if (finishReason !== undefined) out.finish_reason = finishReason;
  return fit([out], limits, true);
}

/** Tool arguments or a tool result (text), scrubbed and truncated. */
export function captureText(text: string, limits: ContentLimits): string {
  return truncate(scrub(text, limits.secrets), limits.maxLength);
}

function otelMessage(message: Message): OtelMessage {
  const parts: OtelPart[] = [];
  for (const block of message.thinking ?? [])
    if (block.text !== undefined && block.text !== '')
      parts.push({ type: 'reasoning', content: block.text });
  if (message.role === 'tool') {
    parts.push({
      type: 'tool_call_response',
      id: message.toolCallId ?? null,
      response: message.content ?? '',
    });
    return { role: 'tool', parts };
  }
  if (message.content !== undefined && message.content !== '')
    parts.push({ type: 'text', content: message.content });
  for (const part of message.parts ?? []) parts.push(mediaPart(part));
  for (const call of message.toolCalls ?? [])
    parts.push({
      type: 'tool_call',
      id: call.id,
      name: call.name,
      arguments: argsValue(call.args),
    });
  return { role: message.role, parts };
}

/**
 * Media by URL is a `uri` part (modality `image`, `document` or `audio`, the part's kind); inline
 * bytes are summarised as `{ type: kind, mime_type, size_bytes }`, never copied into telemetry.
 */
function mediaPart(part: Part): OtelPart {
  const modality: string = typeof part.kind === 'string' ? part.kind : 'image';
  if (part.url !== undefined && !part.url.startsWith('data:'))
    return { type: 'uri', modality, mime_type: part.mediaType ?? null, uri: part.url };
  const size = part.data?.length ?? part.url?.length ?? 0;
  return { type: modality, mime_type: part.mediaType ?? null, size_bytes: size };
}

/** Arguments as a JSON value when they parse, else the raw text. */
function argsValue(args: string): unknown {
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/**
 * `items` as JSON text of at most `maxLength` characters: strings are scrubbed and capped; when
 * the whole is still too long, the oldest items are dropped (`dropOldest`) and then strings are
 * capped harder, so the result is always valid JSON.
 */
function fit(items: readonly unknown[], limits: ContentLimits, dropOldest: boolean): string {
  let cap = limits.maxLength;
  let kept = items.map((item) => clean(item, limits.secrets, cap));
  let text = JSON.stringify(kept);
  while (dropOldest && text.length > limits.maxLength && kept.length > 1) {
    kept = kept.slice(1);
    text = JSON.stringify(kept);
  }
  while (text.length > limits.maxLength && cap > 16) {
    cap = Math.floor(cap / 2);
    kept = kept.map((item) => clean(item, [], cap));
    text = JSON.stringify(kept);
  }
  return text.length > limits.maxLength ? '[]' : text;
}

/** A deep copy of `value` with every string scrubbed and capped at `cap` characters. */
function clean(value: unknown, secrets: readonly string[], cap: number): unknown {
  if (typeof value === 'string') return truncate(scrub(value, secrets), cap);
  if (Array.isArray(value)) return value.map((item) => clean(item, secrets, cap));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[key] = clean(item, secrets, cap);
    return out;
  }
  return value;
}

function truncate(text: string, max: number): string {
  if (text.length <= max) return text;
  const marker = `…[truncated ${text.length - max} chars]`;
  return text.slice(0, Math.max(0, max - marker.length)) + marker;
}
