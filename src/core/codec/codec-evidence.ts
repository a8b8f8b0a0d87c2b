import type { Citation, HostedToolCall } from '../contract/evidence';
import { encodeCompaction, readCompaction } from './codec-compaction';
import { HistoryFormatError } from '../errors/history-error';
import type { Message } from '../contract/message';

/**
 * The durable JSON of an assistant message's provider evidence (added additively after
 * `thinking`): `hostedToolCalls`, `citations`, `responseId`, then the provider's `compaction`
 * item (`codec-compaction.ts`; the engine reads a model's message through the same reader).
 * Same rules as the rest of the codec: keys in contract order, empty strings and arrays omitted
 * on encode and read as absent, `null` as absent, anything wrongly typed a `HistoryFormatError`
 * naming the field.
 */

/** Keys of a hosted tool call, in contract order. */
const CALL_KEYS = ['id', 'type', 'provider', 'status', 'input', 'output'] as const;
/** String keys of a citation, in contract order (the offsets follow `filename`). */
const CITATION_TEXT = ['type', 'url', 'title', 'fileId', 'filename'] as const;
const CITATION_NUMBERS = ['start', 'end'] as const;

type Fields = Record<string, unknown>;

/** The `"key":value` members of the evidence fields of `m`, to append after `thinking`. */
export function encodeEvidence(m: Fields, index: number | undefined): string[] {
  const out: string[] = [];
  const calls = list(m, 'hostedToolCalls', index);
  if (calls !== undefined)
    out.push(
      `"hostedToolCalls":[${calls.map((c, j) => encodeCall(c, index, `hostedToolCalls[${j}]`)).join(',')}]`,
    );
  const citations = list(m, 'citations', index);
  if (citations !== undefined)
    out.push(
      `"citations":[${citations.map((c, j) => encodeCitation(c, index, `citations[${j}]`)).join(',')}]`,
    );
  const responseId = text(m, 'responseId', index, '');
  if (responseId !== undefined) out.push(`"responseId":${JSON.stringify(responseId)}`);
  out.push(...encodeCompaction(m, index));
  return out;
}

/** Reads the evidence fields of stored message `m` onto `message`. */
export function readEvidence(message: Message, m: Fields, index: number): void {
  const calls = list(m, 'hostedToolCalls', index);
  if (calls !== undefined)
    message.hostedToolCalls = calls.map((c, j) => readCall(c, index, `hostedToolCalls[${j}]`));
  const citations = list(m, 'citations', index);
  if (citations !== undefined)
    message.citations = citations.map((c, j) => readCitation(c, index, `citations[${j}]`));
  const responseId = text(m, 'responseId', index, '');
  if (responseId !== undefined) message.responseId = responseId;
  readCompaction(message, m, index);
}

function encodeCall(value: unknown, index: number | undefined, at: string): string {
  const call = readCall(value, index, at);
  return `{${CALL_KEYS.filter((key) => call[key] !== undefined)
    .map((key) => `"${key}":${JSON.stringify(call[key])}`)
    .join(',')}}`;
}

function encodeCitation(value: unknown, index: number | undefined, at: string): string {
  const citation = readCitation(value, index, at);
  const out: string[] = [];
  for (const key of [...CITATION_TEXT, ...CITATION_NUMBERS, 'quote'] as const)
    if (citation[key] !== undefined) out.push(`"${key}":${JSON.stringify(citation[key])}`);
  return `{${out.join(',')}}`;
}

function readCall(value: unknown, index: number | undefined, at: string): HostedToolCall {
  const fields = record(value, index, at);
  const call: HostedToolCall = { id: required(fields, 'id', index, at), type: '' };
  call.type = required(fields, 'type', index, at);
  for (const key of CALL_KEYS.slice(2)) {
    const found = text(fields, key, index, at);
    if (found !== undefined) call[key] = found;
  }
  return call;
}

function readCitation(value: unknown, index: number | undefined, at: string): Citation {
  const fields = record(value, index, at);
  const citation: Citation = { type: required(fields, 'type', index, at) };
  for (const key of [...CITATION_TEXT.slice(1), 'quote'] as const) {
    const found = text(fields, key, index, at);
    if (found !== undefined) citation[key] = found;
  }
  for (const key of CITATION_NUMBERS) {
    const found = offset(fields, key, index, at);
    if (found !== undefined) citation[key] = found;
  }
  return citation;
}

function own(fields: Fields, key: string): unknown {
  return Object.hasOwn(fields, key) ? fields[key] : undefined;
}

function path(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`;
}

function record(value: unknown, index: number | undefined, at: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new HistoryFormatError(index, at, 'must be an object');
  return value as Fields;
}

function list(fields: Fields, key: string, index: number | undefined): unknown[] | undefined {
  const value = own(fields, key);
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new HistoryFormatError(index, key, 'must be an array');
  // Array.from visits the holes of a sparse array (as undefined), which `record` then refuses.
  return value.length === 0 ? undefined : Array.from(value as unknown[]);
}

function text(
  fields: Fields,
  key: string,
  index: number | undefined,
  at: string,
): string | undefined {
  const value = own(fields, key);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string')
    throw new HistoryFormatError(index, path(at, key), 'must be a string');
  return value;
}

function required(fields: Fields, key: string, index: number | undefined, at: string): string {
  const value = text(fields, key, index, at);
  if (value === undefined)
    throw new HistoryFormatError(index, path(at, key), 'must be a non-empty string');
  return value;
}

function offset(
  fields: Fields,
  key: string,
  index: number | undefined,
  at: string,
): number | undefined {
  const value = own(fields, key);
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new HistoryFormatError(index, path(at, key), 'must be a whole number >= 0');
  return value;
}
