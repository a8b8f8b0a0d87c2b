import { Buffer } from 'node:buffer';
import { encodeEvidence } from './codec-evidence';
import * as check from './codec-fields';
import { HistoryFormatError } from '../errors/history-error';
import { escapeLoneSurrogates } from '../kit/lone-surrogates';
import { JsonParseError, compactJson } from '../kit/raw-json';

/** The encoding half of the durable JSON codec (see `codec.ts`): checks as it writes. */

/**
 * One message as its durable JSON object, keys in contract order; `index` (its place in the
 * history, when encoding one) goes into every `HistoryFormatError`.
 */
export function encodeMessageAt(value: unknown, index: number | undefined): string {
  const m = check.record(value, index, '');
  const out = [`"role":${JSON.stringify(check.readRole(m, index))}`];
  emitStrings(out, m, ['content'], index, '');
  const parts = check.optionalArray(m, 'parts', index);
  if (parts)
    out.push(
      `"parts":[${check.mapItems(parts, (p, j) => encodePart(p, index, `parts[${j}]`)).join(',')}]`,
    );
  const calls = check.optionalArray(m, 'toolCalls', index);
  if (calls)
    out.push(
      `"toolCalls":[${check.mapItems(calls, (c, j) => encodeCall(c, index, `toolCalls[${j}]`)).join(',')}]`,
    );
  emitStrings(out, m, ['toolCallId', 'toolName'], index, '');
  const thinking = check.optionalArray(m, 'thinking', index);
  if (thinking)
    out.push(
      `"thinking":[${check.mapItems(thinking, (b, j) => encodeBlock(b, index, `thinking[${j}]`)).join(',')}]`,
    );
  out.push(...encodeEvidence(m, index)); // hosted tool calls, citations, response id, compaction (additive)
  if (check.optionalTrue(m, 'cachePoint', index, '') === true) out.push('"cachePoint":true'); // additive
  return `{${out.join(',')}}`;
}

function encodePart(value: unknown, index: number | undefined, at: string): string {
  const p = check.record(value, index, at);
  const out = [`"kind":${JSON.stringify(check.requiredString(p, 'kind', index, at))}`];
  emitStrings(out, p, ['url'], index, at);
  const data = check.own(p, 'data');
  if (data !== undefined && data !== null) {
    if (!(data instanceof Uint8Array))
      throw new HistoryFormatError(index, `${at}.data`, 'must be a Uint8Array');
    if (data.length > 0)
      out.push(
        `"data":"${Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64')}"`,
      );
  }
  emitStrings(out, p, ['mediaType', 'name'], index, at);
  return `{${out.join(',')}}`;
}

function encodeCall(value: unknown, index: number | undefined, at: string): string {
  const c = check.record(value, index, at);
  const id = JSON.stringify(check.requiredString(c, 'id', index, at));
  const name = JSON.stringify(check.requiredName(c, index, at));
  const out = [
    `"id":${id}`,
    `"name":${name}`,
    `"args":${encodeArgs(check.own(c, 'args'), index, `${at}.args`)}`,
  ];
  emitStrings(out, c, check.CALL_KEYS, index, at);
  return `{${out.join(',')}}`;
}

function encodeArgs(args: unknown, index: number | undefined, field: string): string {
  if (args === undefined || args === null || args === '') return 'null';
  if (typeof args !== 'string')
    throw new HistoryFormatError(index, field, 'must be a string of JSON text');
  try {
    const compact = compactJson(args, {
      maxLength: Number.MAX_SAFE_INTEGER,
      maxDepth: check.ARGS_MAX_DEPTH,
    });
    // UTF-8 cannot carry a lone surrogate: written as its \uXXXX escape it parses the same.
    return escapeLoneSurrogates(compact);
  } catch (error) {
    if (!JsonParseError.is(error)) throw error;
    throw new HistoryFormatError(index, field, `is not valid JSON: ${error.message}`, {
      cause: error,
    });
  }
}

function encodeBlock(value: unknown, index: number | undefined, at: string): string {
  const out: string[] = [];
  emitStrings(out, check.record(value, index, at), check.BLOCK_KEYS, index, at);
  return `{${out.join(',')}}`;
}

/** Appends `"key":"value"` for each of `keys` whose value is a non-empty string. */
function emitStrings(
  out: string[],
  fields: check.Fields,
  keys: readonly string[],
  index: number | undefined,
  at: string,
): void {
  for (const key of keys) {
    const text = check.optionalString(fields, key, index, at);
    if (text !== undefined) out.push(`"${key}":${JSON.stringify(text)}`);
  }
}
