import { Buffer } from 'node:buffer';
import { readEvidence } from './codec-evidence';
import * as check from './codec-fields';
import { HistoryFormatError } from '../errors/history-error';
import type { Message, ToolCall } from '../contract/message';
import type { Part, PartKind } from '../contract/part';
import { RawJson } from '../kit/raw-json';
import type { ThinkingBlock } from '../contract/thinking';

/** The decoding half of the durable JSON codec (see `codec.ts`): untrusted input, checked. */

/** How {@link readHistory} reads `args`, and its bounds. */
export interface ReadMode {
  /** Args are {@link RawJson} from the raw parser (text input) rather than parsed values. */
  raw: boolean;
  argsDepth: number;
  maxNodes: number;
}

/** A parsed stored history (an array of message objects) as messages, checked field by field. */
export function readHistory(tree: unknown, mode: ReadMode): Message[] {
  if (!Array.isArray(tree))
    throw new HistoryFormatError(undefined, '', 'must be a JSON array of messages');
  return check.mapItems(tree, (value, index) => readMessage(value, index, mode));
}

function readMessage(value: unknown, index: number, mode: ReadMode): Message {
  const m = check.record(value, index, '');
  const message = copyStrings<Message>(
    { role: check.readRole(m, index) },
    m,
    ['content'],
    index,
    '',
  );
  const parts = check.optionalArray(m, 'parts', index);
  if (parts) message.parts = check.mapItems(parts, (p, j) => readPart(p, index, `parts[${j}]`));
  const calls = check.optionalArray(m, 'toolCalls', index);
  if (calls)
    message.toolCalls = check.mapItems(calls, (c, j) =>
      readCall(c, index, `toolCalls[${j}]`, mode),
    );
  copyStrings(message, m, ['toolCallId', 'toolName'], index, '');
  const thinking = check.optionalArray(m, 'thinking', index);
  if (thinking)
    message.thinking = check.mapItems(thinking, (b, j) => readBlock(b, index, `thinking[${j}]`));
  readEvidence(message, m, index); // hosted tool calls, citations, response id, compaction (additive)
  if (check.optionalTrue(m, 'cachePoint', index, '') === true) message.cachePoint = true; // additive
  return message;
}

function readPart(value: unknown, index: number, at: string): Part {
  const p = check.record(value, index, at);
  const part = copyStrings<Part>(
    { kind: check.requiredString(p, 'kind', index, at) as PartKind },
    p,
    ['url'],
    index,
    at,
  );
  const data = check.optionalString(p, 'data', index, at);
  if (data !== undefined) part.data = decodeBase64(data, index, `${at}.data`);
  return copyStrings(part, p, ['mediaType', 'name'], index, at);
}

function readCall(value: unknown, index: number, at: string, mode: ReadMode): ToolCall {
  const c = check.record(value, index, at);
  const call: ToolCall = {
    id: check.requiredString(c, 'id', index, at),
    name: check.requiredName(c, index, at),
    args: '',
  };
  const args = check.own(c, 'args');
  if (args !== undefined) call.args = readArgs(args, index, `${at}.args`, mode);
  return copyStrings(call, c, check.CALL_KEYS, index, at);
}

function readBlock(value: unknown, index: number, at: string): ThinkingBlock {
  return copyStrings<ThinkingBlock>(
    {},
    check.record(value, index, at),
    check.BLOCK_KEYS,
    index,
    at,
  );
}

/** Sets each of `keys` whose value in `fields` is a non-empty string on `target`. */
function copyStrings<T extends object>(
  target: T,
  fields: check.Fields,
  keys: readonly (keyof T & string)[],
  index: number,
  at: string,
): T {
  for (const key of keys) {
    const text = check.optionalString(fields, key, index, at);
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
