import { Buffer } from 'node:buffer';
import { encodeEvidence, readEvidence } from './codec-evidence';
import { HistoryFormatError } from './history-error';
import { escapeLoneSurrogates } from './lone-surrogates';
import { ROLES, type Message, type Role, type ToolCall } from './message';
import type { Part, PartKind } from './part';
import {
  JsonParseError,
  RawJson,
  compactJson,
  parseJsonWithRaw,
  type JsonPathSegment,
} from './raw-json';
import type { JsonLimits } from './safe-json';
import type { ThinkingBlock } from './thinking';

/**
 * The durable JSON codec of spec §1. Both directions treat empty strings and empty arrays as
 * absent (the encoder omits them, the decoder leaves their keys out), and `null` for an
 * optional key as absent. Tool-call `args` are raw JSON text: the encoder splices them in
 * compacted, the decoder keeps their source spelling; empty args encode as `null`, absent args
 * decode as `''` and `null` args as `'null'`. The encoder's output is well-formed UTF-16, so it
 * survives UTF-8: `JSON.stringify` escapes lone surrogates in string fields, and a lone surrogate
 * written literally inside `args` is written as its `\uXXXX` escape (the same JSON value).
 */

/** Deepest nesting of arrays and objects accepted inside one tool call's `args`. */
export const ARGS_MAX_DEPTH = 256;
/** Nesting levels around `args`: the history array, the message, `toolCalls` and the call. */
const ENVELOPE_DEPTH = 4;
/** Keys of a thinking block, in contract order (provenance last: added later, additively). */
const BLOCK_KEYS = ['text', 'signature', 'redacted', 'provider', 'model', 'id'] as const;
/** Optional string keys of a tool call after `args`, in contract order. */
const CALL_KEYS = ['signature', 'signatureProvider', 'signatureModel'] as const;
/** Default limits of {@link decodeMessages}: 64 MiB of text, args nested up to {@link ARGS_MAX_DEPTH}. */
export const HISTORY_DEFAULT_LIMITS: Readonly<Required<JsonLimits>> = {
  maxLength: 64 * 1024 * 1024,
  maxDepth: ENVELOPE_DEPTH + ARGS_MAX_DEPTH,
};

/**
 * Encodes a conversation as the durable JSON array of spec §1, keys in contract order. Throws
 * {@link HistoryFormatError} for a message the decoder would refuse (unknown role, wrongly
 * typed field, empty tool name, args that are not valid JSON or nest deeper than
 * {@link ARGS_MAX_DEPTH}).
 */
export function encodeMessages(messages: readonly Message[]): string {
  if (!Array.isArray(messages))
    throw new HistoryFormatError(undefined, '', 'must be an array of messages');
  return `[${mapItems(messages, (message, index) => encodeAt(message, index)).join(',')}]`;
}

/** Encodes one message as its durable JSON object; errors carry no message index. */
export function encodeMessage(message: Message): string {
  return encodeAt(message, undefined);
}

/**
 * Decodes stored history text. Unknown keys are ignored and optional keys may be absent;
 * anything else malformed, oversized or too deep throws {@link HistoryFormatError}. `maxDepth`
 * counts the whole document (the envelope takes 4 levels around args).
 */
export function decodeMessages(json: string, limits: JsonLimits = {}): Message[] {
  if (typeof json !== 'string') throw new HistoryFormatError(undefined, '', 'must be JSON text');
  const maxLength = limits.maxLength ?? HISTORY_DEFAULT_LIMITS.maxLength;
  const maxDepth = limits.maxDepth ?? HISTORY_DEFAULT_LIMITS.maxDepth;
  if (json.length > maxLength) {
    throw new HistoryFormatError(
      undefined,
      '',
      `is ${json.length} characters; the limit is ${maxLength}`,
    );
  }
  let tree: unknown;
  try {
    tree = parseJsonWithRaw(json, { maxLength, maxDepth, rawAt: isArgsPath });
  } catch (error) {
    if (!JsonParseError.is(error)) throw error;
    const head = error.path[0];
    const index = typeof head === 'number' ? head : undefined;
    const field = index === undefined ? '' : renderPath(error.path.slice(1));
    throw new HistoryFormatError(index, field, `is not valid JSON: ${error.message}`, {
      cause: error,
    });
  }
  return readHistory(tree, {
    raw: true,
    argsDepth: maxDepth - ENVELOPE_DEPTH,
    maxNodes: maxLength,
  });
}

/**
 * Reads untrusted stored history given either as JSON text (see {@link decodeMessages}) or as
 * an already-parsed array (e.g. from a document store); in the latter, each call's `args`
 * value is re-serialised with `JSON.stringify` after checking it is plain, finite JSON.
 */
export function parseHistory(value: unknown, limits: JsonLimits = {}): Message[] {
  if (typeof value === 'string') return decodeMessages(value, limits);
  const maxDepth = limits.maxDepth ?? HISTORY_DEFAULT_LIMITS.maxDepth;
  const maxNodes = limits.maxLength ?? HISTORY_DEFAULT_LIMITS.maxLength;
  return readHistory(value, { raw: false, argsDepth: maxDepth - ENVELOPE_DEPTH, maxNodes });
}

function encodeAt(value: unknown, index: number | undefined): string {
  const m = record(value, index, '');
  const out = [`"role":${JSON.stringify(readRole(m, index))}`];
  emitStrings(out, m, ['content'], index, '');
  const parts = optionalArray(m, 'parts', index);
  if (parts)
    out.push(
      `"parts":[${mapItems(parts, (p, j) => encodePart(p, index, `parts[${j}]`)).join(',')}]`,
    );
  const calls = optionalArray(m, 'toolCalls', index);
  if (calls)
    out.push(
      `"toolCalls":[${mapItems(calls, (c, j) => encodeCall(c, index, `toolCalls[${j}]`)).join(',')}]`,
    );
  emitStrings(out, m, ['toolCallId', 'toolName'], index, '');
  const thinking = optionalArray(m, 'thinking', index);
  if (thinking)
    out.push(
      `"thinking":[${mapItems(thinking, (b, j) => encodeBlock(b, index, `thinking[${j}]`)).join(',')}]`,
    );
  out.push(...encodeEvidence(m, index)); // hosted tool calls, citations, response id (additive)
  return `{${out.join(',')}}`;
}

function encodePart(value: unknown, index: number | undefined, at: string): string {
  const p = record(value, index, at);
  const out = [`"kind":${JSON.stringify(requiredString(p, 'kind', index, at))}`];
  emitStrings(out, p, ['url'], index, at);
  const data = own(p, 'data');
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
  const c = record(value, index, at);
  const id = JSON.stringify(requiredString(c, 'id', index, at));
  const name = JSON.stringify(requiredName(c, index, at));
  const out = [
    `"id":${id}`,
    `"name":${name}`,
    `"args":${encodeArgs(own(c, 'args'), index, `${at}.args`)}`,
  ];
  emitStrings(out, c, CALL_KEYS, index, at);
  return `{${out.join(',')}}`;
}

function encodeArgs(args: unknown, index: number | undefined, field: string): string {
  if (args === undefined || args === null || args === '') return 'null';
  if (typeof args !== 'string')
    throw new HistoryFormatError(index, field, 'must be a string of JSON text');
  try {
    const compact = compactJson(args, {
      maxLength: Number.MAX_SAFE_INTEGER,
      maxDepth: ARGS_MAX_DEPTH,
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
  emitStrings(out, record(value, index, at), BLOCK_KEYS, index, at);
  return `{${out.join(',')}}`;
}

/** Appends `"key":"value"` for each of `keys` whose value is a non-empty string. */
function emitStrings(
  out: string[],
  fields: Fields,
  keys: readonly string[],
  index: number | undefined,
  at: string,
): void {
  for (const key of keys) {
    const text = optionalString(fields, key, index, at);
    if (text !== undefined) out.push(`"${key}":${JSON.stringify(text)}`);
  }
}

interface ReadMode {
  /** Args are {@link RawJson} from the raw parser (text input) rather than parsed values. */
  raw: boolean;
  argsDepth: number;
  maxNodes: number;
}

function isArgsPath(path: readonly JsonPathSegment[]): boolean {
  return path.length === 4 && path[3] === 'args' && path[1] === 'toolCalls';
}

function readHistory(tree: unknown, mode: ReadMode): Message[] {
  if (!Array.isArray(tree))
    throw new HistoryFormatError(undefined, '', 'must be a JSON array of messages');
  return mapItems(tree, (value, index) => readMessage(value, index, mode));
}

function readMessage(value: unknown, index: number, mode: ReadMode): Message {
  const m = record(value, index, '');
  const message = copyStrings<Message>({ role: readRole(m, index) }, m, ['content'], index, '');
  const parts = optionalArray(m, 'parts', index);
  if (parts) message.parts = mapItems(parts, (p, j) => readPart(p, index, `parts[${j}]`));
  const calls = optionalArray(m, 'toolCalls', index);
  if (calls)
    message.toolCalls = mapItems(calls, (c, j) => readCall(c, index, `toolCalls[${j}]`, mode));
  copyStrings(message, m, ['toolCallId', 'toolName'], index, '');
  const thinking = optionalArray(m, 'thinking', index);
  if (thinking)
    message.thinking = mapItems(thinking, (b, j) => readBlock(b, index, `thinking[${j}]`));
  readEvidence(message, m, index); // hosted tool calls, citations, response id (additive)
  return message;
}

function readPart(value: unknown, index: number, at: string): Part {
  const p = record(value, index, at);
  const part = copyStrings<Part>(
    { kind: requiredString(p, 'kind', index, at) as PartKind },
    p,
    ['url'],
    index,
    at,
  );
  const data = optionalString(p, 'data', index, at);
  if (data !== undefined) part.data = decodeBase64(data, index, `${at}.data`);
  return copyStrings(part, p, ['mediaType', 'name'], index, at);
}

function readCall(value: unknown, index: number, at: string, mode: ReadMode): ToolCall {
  const c = record(value, index, at);
  const call: ToolCall = {
    id: requiredString(c, 'id', index, at),
    name: requiredName(c, index, at),
    args: '',
  };
  const args = own(c, 'args');
  if (args !== undefined) call.args = readArgs(args, index, `${at}.args`, mode);
  return copyStrings(call, c, CALL_KEYS, index, at);
}

function readBlock(value: unknown, index: number, at: string): ThinkingBlock {
  return copyStrings<ThinkingBlock>({}, record(value, index, at), BLOCK_KEYS, index, at);
}

/** Sets each of `keys` whose value in `fields` is a non-empty string on `target`. */
function copyStrings<T extends object>(
  target: T,
  fields: Fields,
  keys: readonly (keyof T & string)[],
  index: number,
  at: string,
): T {
  for (const key of keys) {
    const text = optionalString(fields, key, index, at);
    if (text !== undefined) (target as Record<string, unknown>)[key] = text;
  }
  return target;
}

function readArgs(args: unknown, index: number, field: string, mode: ReadMode): string {
  if (mode.raw) {
    if (args instanceof RawJson) return args.text;
    throw new HistoryFormatError(index, field, 'is not raw JSON text');
  }
  const problem = plainJsonProblem(args, mode.argsDepth, mode.maxNodes);
  if (problem !== undefined) throw new HistoryFormatError(index, field, problem);
  return JSON.stringify(args);
}

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Strict standard base64 with padding; non-canonical trailing bits are refused too. */
function decodeBase64(text: string, index: number, field: string): Uint8Array {
  const bytes =
    text.length % 4 === 0 && BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;
  if (bytes?.toString('base64') !== text) {
    throw new HistoryFormatError(index, field, 'must be standard base64 with padding');
  }
  return new Uint8Array(bytes);
}

/**
 * Why an already-parsed args value cannot be serialised faithfully as JSON, or `undefined`.
 * Iterative, so hostile depth cannot overflow the stack; `maxNodes` bounds shared-subtree bombs.
 */
function plainJsonProblem(value: unknown, maxDepth: number, maxNodes: number): string | undefined {
  const stack: [unknown, number][] = [[value, 0]];
  let nodes = 0;
  for (let top = stack.pop(); top !== undefined; top = stack.pop()) {
    const [current, depth] = top;
    if (++nodes > maxNodes) return `has more than ${maxNodes} values`;
    if (current === null || typeof current === 'string' || typeof current === 'boolean') continue;
    if (typeof current === 'number') {
      if (!Number.isFinite(current)) return 'contains a non-finite number';
      continue;
    }
    if (typeof current !== 'object')
      return `contains a value of type ${typeof current}, which is not JSON`;
    if (depth >= maxDepth) return `is nested deeper than ${maxDepth} levels`;
    if (Array.isArray(current)) {
      for (const item of current as unknown[]) stack.push([item, depth + 1]);
      continue;
    }
    const proto: unknown = Object.getPrototypeOf(current);
    if (proto !== Object.prototype && proto !== null)
      return 'contains an object that is not a plain object';
    for (const item of Object.values(current)) stack.push([item, depth + 1]);
  }
  return undefined;
}

type Fields = Record<string, unknown>;

/** Like `Array.prototype.map`, but visits holes of sparse arrays (as `undefined`) too. */
function mapItems<T>(items: readonly unknown[], fn: (item: unknown, index: number) => T): T[] {
  const out: T[] = [];
  for (let i = 0; i < items.length; i++) out.push(fn(items[i], i));
  return out;
}

function own(fields: Fields, key: string): unknown {
  return Object.hasOwn(fields, key) ? fields[key] : undefined;
}

function join(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`;
}

function record(value: unknown, index: number | undefined, at: string): Fields {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new HistoryFormatError(index, at, 'must be an object');
  }
  return value as Fields;
}

function readRole(m: Fields, index: number | undefined): Role {
  const role = own(m, 'role');
  if (typeof role === 'string' && (ROLES as readonly string[]).includes(role)) return role as Role;
  const problem = role === undefined ? 'is missing' : `must be one of ${ROLES.join(', ')}`;
  throw new HistoryFormatError(index, 'role', problem);
}

/** An optional string; absent, `null` and `''` all read as `undefined`. */
function optionalString(
  fields: Fields,
  key: string,
  index: number | undefined,
  at: string,
): string | undefined {
  const value = own(fields, key);
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string')
    throw new HistoryFormatError(index, join(at, key), 'must be a string');
  return value;
}

function requiredString(
  fields: Fields,
  key: string,
  index: number | undefined,
  at: string,
): string {
  const value = own(fields, key);
  if (typeof value !== 'string')
    throw new HistoryFormatError(index, join(at, key), 'must be a string');
  return value;
}

function requiredName(call: Fields, index: number | undefined, at: string): string {
  const name = requiredString(call, 'name', index, at);
  if (name === '') throw new HistoryFormatError(index, join(at, 'name'), 'must not be empty');
  return name;
}

/** An optional array; absent, `null` and `[]` all read as `undefined`. */
function optionalArray(
  fields: Fields,
  key: string,
  index: number | undefined,
): unknown[] | undefined {
  const value = own(fields, key);
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value)) throw new HistoryFormatError(index, key, 'must be an array');
  return value.length === 0 ? undefined : (value as unknown[]);
}

const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

function renderPath(path: readonly JsonPathSegment[]): string {
  let out = '';
  for (const segment of path) {
    if (typeof segment === 'number') out += `[${segment}]`;
    else if (!IDENTIFIER.test(segment)) out += `[${JSON.stringify(segment)}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}
