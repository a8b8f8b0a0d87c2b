import type { Delta, ThinkingDelta, ToolCallDelta } from '../core/contract/delta';
import type { Citation, HostedToolCall } from '../core/contract/evidence';
import type { CompactionItem, Message, ToolCall } from '../core/contract/message';
import type { ModelResponse } from '../core/contract/response';
import type { ThinkingBlock } from '../core/contract/thinking';
import type { Usage } from '../core/contract/usage';
import { USAGE_DETAILS } from '../core/contract/usage';
import { isRecord } from '../core/kit/guards';

/** The format tag of a stored entry; an entry with another tag is a miss. */
const FORMAT = 'golem.response-cache/1';

/**
 * One cached answer as it is stored. Internal.
 * @inline
 */
export interface CachedEntry {
  /** The response, without `usage` (a hit reports its own) and without rate-limit state. */
  readonly response: Omit<ModelResponse, 'usage' | 'rateLimit' | 'contextEdits'>;
  /** What the provider reported when the answer was made (kept for statistics). */
  readonly usage: Usage;
  /** The fragments the model streamed, in order, when the answer came from a streamed call. */
  readonly deltas?: readonly Delta[];
  /** When it was stored (ms since the epoch). */
  readonly storedAt: number;
}

/** The stored text of `entry`. Internal. */
export function encodeEntry(entry: CachedEntry): string {
  return JSON.stringify({ format: FORMAT, ...entry });
}

/**
 * The entry stored as `text`, or `undefined` when it is not one (corrupt, truncated, written by
 * something else or by another format). Stored text is untrusted: every field is checked and
 * copied, unknown fields are dropped, and nothing here throws.
 */
export function decodeEntry(text: unknown): CachedEntry | undefined {
  if (typeof text !== 'string') return undefined;
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!isRecord(raw) || raw.format !== FORMAT || !isRecord(raw.response)) return undefined;
  const message = readMessage(raw.response.message);
  const usage = readUsage(raw.usage);
  if (message === undefined || usage === undefined || !isCount(raw.storedAt)) return undefined;
  const response: CachedEntry['response'] = { message };
  for (const field of ['finishReason', 'modelName', 'responseId'] as const) {
    const value = raw.response[field];
    if (value === undefined) continue;
    if (typeof value !== 'string') return undefined;
    response[field] = value;
  }
  if (raw.deltas === undefined) return { response, usage, storedAt: raw.storedAt };
  const deltas = readList(raw.deltas, readDelta);
  return deltas === undefined ? undefined : { response, usage, deltas, storedAt: raw.storedAt };
}

type Reader<T> = (value: unknown) => T | undefined;

function readList<T>(value: unknown, read: Reader<T>): T[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const out: T[] = [];
  for (const item of value as unknown[]) {
    const read_ = read(item);
    if (read_ === undefined) return undefined;
    out.push(read_);
  }
  return out;
}

/** Copies the string fields `names` of `from` into `to`; false when one is not a string. */
function strings(from: Record<string, unknown>, to: object, names: readonly string[]): boolean {
  for (const name of names) {
    const value = from[name];
    if (value === undefined) continue;
    if (typeof value !== 'string') return false;
    (to as Record<string, unknown>)[name] = value;
  }
  return true;
}

function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

function isIndex(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

function readMessage(value: unknown): Message | undefined {
  if (!isRecord(value) || value.role !== 'assistant') return undefined;
  const message: Message = { role: 'assistant' };
  if (!strings(value, message, ['content', 'responseId'])) return undefined;
  const lists = [
    ['toolCalls', readToolCall],
    ['thinking', readThinking],
    ['hostedToolCalls', readHostedCall],
    ['citations', readCitation],
  ] as const;
  for (const [field, read] of lists) {
    if (value[field] === undefined) continue;
    const items = readList(value[field], read as Reader<unknown>);
    if (items === undefined) return undefined;
    (message as unknown as Record<string, unknown>)[field] = items;
  }
  if (value.compaction !== undefined) {
    const compaction = readCompaction(value.compaction);
    if (compaction === undefined) return undefined;
    message.compaction = compaction;
  }
  return message;
}

function readToolCall(value: unknown): ToolCall | undefined {
  if (!isRecord(value)) return undefined;
  const { id, name, args } = value;
  if (typeof id !== 'string' || typeof name !== 'string' || typeof args !== 'string')
    return undefined;
  const call: ToolCall = { id, name, args };
  return strings(value, call, ['signature', 'signatureProvider', 'signatureModel'])
    ? call
    : undefined;
}

function readThinking(value: unknown): ThinkingBlock | undefined {
  if (!isRecord(value)) return undefined;
  const block: ThinkingBlock = {};
  return strings(value, block, ['text', 'signature', 'redacted', 'provider', 'model', 'id'])
    ? block
    : undefined;
}

function readHostedCall(value: unknown): HostedToolCall | undefined {
  if (!isRecord(value) || typeof value.id !== 'string' || typeof value.type !== 'string')
    return undefined;
  const call: HostedToolCall = { id: value.id, type: value.type };
  return strings(value, call, ['provider', 'status', 'input', 'output']) ? call : undefined;
}

function readCitation(value: unknown): Citation | undefined {
  if (!isRecord(value) || typeof value.type !== 'string') return undefined;
  const citation: Citation = { type: value.type };
  if (!strings(value, citation, ['url', 'title', 'fileId', 'filename', 'quote'])) return undefined;
  for (const field of ['start', 'end'] as const) {
    const n = value[field];
    if (n === undefined) continue;
    if (!isIndex(n)) return undefined;
    citation[field] = n;
  }
  return citation;
}

function readCompaction(value: unknown): CompactionItem | undefined {
  if (!isRecord(value) || typeof value.provider !== 'string' || typeof value.data !== 'string')
    return undefined;
  const item: CompactionItem = { provider: value.provider, data: value.data };
  return strings(value, item, ['model', 'id']) ? item : undefined;
}

function readUsage(value: unknown): Usage | undefined {
  if (!isRecord(value) || !isCount(value.inputTokens) || !isCount(value.outputTokens))
    return undefined;
  const usage: Usage = { inputTokens: value.inputTokens, outputTokens: value.outputTokens };
  for (const key of USAGE_DETAILS) {
    const n = value[key];
    if (n === undefined) continue;
    if (!isCount(n)) return undefined;
    usage[key] = n;
  }
  return usage;
}

function readDelta(value: unknown): Delta | undefined {
  if (!isRecord(value)) return undefined;
  const delta: Delta = {};
  if (!strings(value, delta, ['content'])) return undefined;
  if (value.toolCalls !== undefined) {
    const calls = readList(value.toolCalls, readToolCallDelta);
    if (calls === undefined) return undefined;
    delta.toolCalls = calls;
  }
  if (value.thinking !== undefined) {
    const thinking = readList(value.thinking, readThinkingDelta);
    if (thinking === undefined) return undefined;
    delta.thinking = thinking;
  }
  return delta;
}

function readToolCallDelta(value: unknown): ToolCallDelta | undefined {
  if (!isRecord(value) || !isIndex(value.index)) return undefined;
  const fragment: ToolCallDelta = { index: value.index };
  return strings(value, fragment, ['id', 'name', 'argsFragment']) ? fragment : undefined;
}

function readThinkingDelta(value: unknown): ThinkingDelta | undefined {
  if (!isRecord(value) || !isIndex(value.index)) return undefined;
  const fragment: ThinkingDelta = { index: value.index };
  return strings(value, fragment, ['text', 'signature']) ? fragment : undefined;
}

/** A deep copy of a fragment (its arrays and their items), as stored. Internal. */
export function copyDelta(delta: Delta): Delta {
  const copy: Delta = {};
  if (delta.content !== undefined) copy.content = delta.content;
  if (delta.toolCalls !== undefined) copy.toolCalls = delta.toolCalls.map((c) => ({ ...c }));
  if (delta.thinking !== undefined) copy.thinking = delta.thinking.map((t) => ({ ...t }));
  return copy;
}

/**
 * Fragments that rebuild `response` for a stream consumer, for an entry stored by a call that did
 * not stream: one per thinking block, the text, then each tool call whole. Internal.
 */
export function synthesizeDeltas(response: CachedEntry['response']): Delta[] {
  const deltas: Delta[] = [];
  const message = response.message;
  (message.thinking ?? []).forEach((block, index) => {
    if (block.text === undefined && block.signature === undefined) return;
    const fragment: ThinkingDelta = { index };
    if (block.text !== undefined) fragment.text = block.text;
    if (block.signature !== undefined) fragment.signature = block.signature;
    deltas.push({ thinking: [fragment] });
  });
  if (message.content !== undefined && message.content !== '')
    deltas.push({ content: message.content });
  (message.toolCalls ?? []).forEach((call, index) => {
    deltas.push({ toolCalls: [{ index, id: call.id, name: call.name, argsFragment: call.args }] });
  });
  return deltas;
}
