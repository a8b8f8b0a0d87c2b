import { ARGS_MAX_DEPTH, mapItems } from './codec-fields';
import { encodeMessageAt } from './codec-encode';
import { readHistory } from './codec-read';
import { HistoryFormatError } from '../errors/history-error';
import type { Message } from '../contract/message';
import { JsonParseError, parseJsonWithRaw, type JsonPathSegment } from '../kit/raw-json';
import type { JsonLimits } from '../kit/safe-json';

/**
 * The durable JSON codec of spec §1. Both directions treat empty strings and empty arrays as
 * absent (the encoder omits them, the decoder leaves their keys out), and `null` for an
 * optional key as absent. Tool-call `args` are raw JSON text: the encoder splices them in
 * compacted, the decoder keeps their source spelling; empty args encode as `null`, absent args
 * decode as `''` and `null` args as `'null'`. The encoder's output is well-formed UTF-16, so it
 * survives UTF-8: `JSON.stringify` escapes lone surrogates in string fields, and a lone surrogate
 * written literally inside `args` is written as its `\uXXXX` escape (the same JSON value). A
 * message's provider `compaction` item (`{provider, model?, id?, data}`) follows the evidence
 * fields; its `cachePoint: true` (a prompt-cache breakpoint) is kept, last of its keys; `false` is
 * absent, like an empty value. Encoding is in `codec-encode.ts`, decoding in `codec-read.ts`.
 */

export { ARGS_MAX_DEPTH } from './codec-fields';

/** Nesting levels around `args`: the history array, the message, `toolCalls` and the call. */
const ENVELOPE_DEPTH = 4;
/** Default limits of {@link decodeMessages}: 64 MiB of text, args nested up to {@link ARGS_MAX_DEPTH}. */
export const HISTORY_DEFAULT_LIMITS: Readonly<Required<JsonLimits>> = {
  maxLength: 64 * 1024 * 1024,
  maxDepth: ENVELOPE_DEPTH + ARGS_MAX_DEPTH,
};

/**
 * Encodes a conversation as the durable JSON array of spec §1, keys in contract order. Throws
 * {@link HistoryFormatError} for a message the decoder would refuse (unknown role, wrongly
 * typed field, empty tool name, args that are not valid JSON or nest deeper than 256 levels).
 */
export function encodeMessages(messages: readonly Message[]): string {
  if (!Array.isArray(messages))
    throw new HistoryFormatError(undefined, '', 'must be an array of messages');
  return `[${mapItems(messages, (message, index) => encodeMessageAt(message, index)).join(',')}]`;
}

/** Encodes one message as its durable JSON object; errors carry no message index. */
export function encodeMessage(message: Message): string {
  return encodeMessageAt(message, undefined);
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

function isArgsPath(path: readonly JsonPathSegment[]): boolean {
  return path.length === 4 && path[3] === 'args' && path[1] === 'toolCalls';
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
