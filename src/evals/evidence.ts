import { addUsage, emptyUsage, encodeMessages } from '../core/index';
import type { JsonValue, Message, RunEvent, Usage } from '../core/index';
import { isRecord } from '../core/kit/guards';
import type { EvalToolCall } from './evaluator';

/** What a case run's task produced, normalised: its output and the run's evidence. */
export interface RunEvidence {
  readonly output: unknown;
  readonly messages: readonly Message[];
  readonly toolCalls: readonly EvalToolCall[];
  /** Model turns: the observed runs' successful model calls, else the transcript's assistant messages. */
  readonly turns: number;
  readonly requests: number;
  readonly usage: Usage;
  /** Priced cost (absent: not priced). */
  readonly cost: number | undefined;
  /** Set when the value was a paused golem result: its pending calls, for the error. */
  readonly paused?: string;
}

/**
 * Whether `value` carries evidence: a golem run result (`output`, a `messages` array and
 * `usage`) or a `TaskEvidence` (`output` with a `messages` array or a `usage` object). Any other
 * value is a plain output.
 */
export function isEvidence(value: unknown): value is Record<string, unknown> {
  if (!isRecord(value) || !('output' in value)) return false;
  return Array.isArray(value['messages']) || isRecord(value['usage']);
}

/**
 * The evidence of what a task returned (see {@link isEvidence}); `events` are the run events
 * observed, counted for `requests` when the value does not say.
 */
export function evidenceOf(value: unknown, events: readonly RunEvent[]): RunEvidence {
  if (!isEvidence(value)) return plainEvidence(value, events);
  const messages = Array.isArray(value['messages']) ? (value['messages'] as Message[]) : [];
  const usage = isRecord(value['usage'])
    ? addUsage(emptyUsage(), value['usage'] as unknown as Usage)
    : null;
  const turns = turnsFrom(events) ?? assistantTurns(messages);
  const requests =
    typeof value['requests'] === 'number' ? value['requests'] : requestsFrom(events, turns);
  const evidence: RunEvidence = {
    output: value['output'],
    messages,
    toolCalls: toolCallsOf(messages),
    turns,
    requests,
    usage: usage ?? usageFrom(events),
    cost: costOf(value['cost']),
  };
  const pending = value['pending'];
  if (pending === undefined || pending === null) return evidence;
  return { ...evidence, paused: pendingText(pending) };
}

function plainEvidence(output: unknown, events: readonly RunEvent[]): RunEvidence {
  return {
    output,
    messages: [],
    toolCalls: [],
    turns: 0,
    requests: requestsFrom(events, 0),
    usage: usageFrom(events),
    cost: undefined,
  };
}

/**
 * Model turns the observed runs took: their successful model calls (a retried call counts once;
 * history given to the run does not count). `undefined` when no run was observed.
 */
function turnsFrom(events: readonly RunEvent[]): number | undefined {
  let turns = 0;
  let observed = false;
  for (const event of events) {
    if (event.kind !== 'model_end') continue;
    observed = true;
    if (!('error' in event) || event.error === undefined) turns += 1;
  }
  return observed ? turns : undefined;
}

function assistantTurns(messages: readonly Message[]): number {
  return messages.filter((m) => m.role === 'assistant').length;
}

function requestsFrom(events: readonly RunEvent[], fallback: number): number {
  const ends = events.filter((e) => e.kind === 'model_end').length;
  return ends > 0 ? ends : fallback;
}

function usageFrom(events: readonly RunEvent[]): Usage {
  let usage = emptyUsage();
  for (const event of events) {
    if (event.kind !== 'model_end') continue;
    const given = (event as { usage?: unknown }).usage;
    if (isRecord(given)) usage = addUsage(usage, given as unknown as Usage);
  }
  return usage;
}

function costOf(cost: unknown): number | undefined {
  if (typeof cost === 'number') return Number.isFinite(cost) ? cost : undefined;
  if (isRecord(cost) && typeof cost['total'] === 'number' && Number.isFinite(cost['total']))
    return cost['total'];
  return undefined;
}

function pendingText(pending: unknown): string {
  const names: string[] = [];
  if (isRecord(pending)) {
    for (const list of [pending['approvals'], pending['external']]) {
      if (!Array.isArray(list)) continue;
      for (const call of list as unknown[]) {
        const name = isRecord(call) ? call['toolName'] : undefined;
        names.push(typeof name === 'string' ? name : '?');
      }
    }
  }
  return names.length === 0 ? 'pending tool calls' : `pending calls to ${names.join(', ')}`;
}

/**
 * The tool calls of a transcript in order: each assistant message's `toolCalls` joined with the
 * tool message answering it (`toolCallId`). Arguments are parsed JSON, or the raw text when
 * they are not JSON.
 */
export function toolCallsOf(messages: readonly Message[]): EvalToolCall[] {
  const results = new Map<string, string>();
  for (const message of messages) {
    if (
      message.role === 'tool' &&
      message.toolCallId !== undefined &&
      !results.has(message.toolCallId)
    )
      results.set(message.toolCallId, message.content ?? '');
  }
  const calls: EvalToolCall[] = [];
  for (const message of messages) {
    if (message.role !== 'assistant') continue;
    for (const call of message.toolCalls ?? []) {
      const result = results.get(call.id);
      const made: EvalToolCall = { name: call.name, id: call.id, args: parseArgs(call.args) };
      calls.push(result === undefined ? made : { ...made, result });
    }
  }
  return calls;
}

function parseArgs(args: string): unknown {
  if (args.trim() === '') return {};
  try {
    return JSON.parse(args) as unknown;
  } catch {
    return args;
  }
}

/** A transcript in the durable message JSON (`encodeMessages`); JSON-safe copies when it fails. */
export function encodeTranscript(messages: readonly Message[]): JsonValue[] {
  if (messages.length === 0) return [];
  try {
    return JSON.parse(encodeMessages(messages)) as JsonValue[];
  } catch {
    return messages.map((m) => toJsonValue(m));
  }
}

/**
 * `value` as JSON for a report: class instances become their own enumerable fields, a `toJSON`
 * method is honoured (dates), `undefined` fields are left out, and what JSON cannot hold (a
 * bigint, NaN, a symbol, a function, a cycle) becomes text.
 */
export function toJsonValue(value: unknown): JsonValue {
  return jsonOf(value, new Set()) ?? null;
}

function jsonOf(value: unknown, seen: Set<object>): JsonValue | undefined {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return value;
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'undefined':
      return undefined;
    case 'bigint':
    case 'symbol':
      return value.toString();
    case 'function':
      return `[function ${value.name === '' ? 'anonymous' : value.name}]`;
    default:
      break;
  }
  const object = value;
  if (seen.has(object)) return '[circular]';
  const toJSON = (object as { toJSON?: unknown }).toJSON;
  if (typeof toJSON === 'function') {
    try {
      return jsonOf((toJSON as () => unknown).call(object), seen);
    } catch {
      return '[unserialisable]';
    }
  }
  seen.add(object);
  try {
    if (Array.isArray(object)) return object.map((item) => jsonOf(item, seen) ?? null);
    if (object instanceof Map) return jsonOf(Object.fromEntries(object), seen);
    if (object instanceof Set) return jsonOf([...object], seen);
    const out: Record<string, JsonValue> = {};
    for (const key of Object.keys(object)) {
      const item = jsonOf((object as Record<string, unknown>)[key], seen);
      if (item !== undefined) out[key] = item;
    }
    return out;
  } finally {
    seen.delete(object);
  }
}
