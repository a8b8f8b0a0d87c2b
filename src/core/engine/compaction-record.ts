import { encodeMessages, parseHistory } from '../codec/codec';
import type { ContextEdit } from '../contract/response';
import type { Usage } from '../contract/usage';
import { describeError } from '../kit/error-base';
import { isRecord } from '../kit/guards';
import type { JsonValue } from '../kit/json';
import type { Compaction } from './compaction';
import { pairProblem } from './compaction-policies';

// A compaction record as JSON (a run's state, a stored run's row) and back, read as untrusted.

/** A compaction as a JSON value: replacement messages in the durable codec. Internal. */
export function encodeCompaction(c: Compaction): JsonValue {
  const value: Record<string, JsonValue> = {
    policy: c.policy,
    from: c.from,
    to: c.to,
    turn: c.turn,
    tokensBefore: c.tokensBefore,
    tokensAfter: c.tokensAfter,
  };
  if (c.cleared !== undefined) value.cleared = [...c.cleared];
  if (c.replacement !== undefined)
    value.replacement = JSON.parse(encodeMessages(c.replacement)) as JsonValue;
  if (c.edits !== undefined) value.edits = c.edits.map((e) => ({ ...e }));
  if (c.usage !== undefined) value.usage = { ...c.usage };
  return value;
}

/** Compactions as JSON text (a stored run's column). Internal. */
export function compactionsJson(compactions: readonly Compaction[]): string {
  return JSON.stringify(compactions.map(encodeCompaction));
}

const EDIT_KINDS: readonly string[] = ['cleared-tool-uses', 'cleared-thinking', 'compacted'];

function count(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0)
    throw new TypeError(`${field} is not a non-negative integer`);
  return value;
}

function readEdit(value: unknown, at: string): ContextEdit {
  if (!isRecord(value) || typeof value.kind !== 'string' || !EDIT_KINDS.includes(value.kind))
    throw new TypeError(`${at} is not a context edit`);
  if (typeof value.type !== 'string') throw new TypeError(`${at}.type is not a text`);
  const edit: ContextEdit = { kind: value.kind as ContextEdit['kind'], type: value.type };
  if (value.clearedToolUses !== undefined)
    edit.clearedToolUses = count(value.clearedToolUses, `${at}.clearedToolUses`);
  if (value.clearedInputTokens !== undefined)
    edit.clearedInputTokens = count(value.clearedInputTokens, `${at}.clearedInputTokens`);
  if (value.clearedThinkingTurns !== undefined)
    edit.clearedThinkingTurns = count(value.clearedThinkingTurns, `${at}.clearedThinkingTurns`);
  return edit;
}

/**
 * A response's `contextEdits` as the engine keeps them: well-formed edits copied, malformed ones
 * left out (they are evidence, not instructions); `undefined` when none remains. Internal.
 */
export function contextEditsOf(value: unknown): ContextEdit[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const edits: ContextEdit[] = [];
  for (const [i, entry] of value.entries()) {
    try {
      edits.push(readEdit(entry, `contextEdits[${i}]`));
    } catch {
      // A malformed report is dropped; the response itself stands.
    }
  }
  return edits.length === 0 ? undefined : edits;
}

function readOne(value: unknown, at: string, length: number): Compaction {
  if (!isRecord(value)) throw new TypeError(`${at} is not an object`);
  if (typeof value.policy !== 'string' || value.policy === '')
    throw new TypeError(`${at}.policy is not a text`);
  const from = count(value.from, `${at}.from`);
  const to = count(value.to, `${at}.to`);
  if (from > to || to > length)
    throw new TypeError(`${at} covers ${from}…${to}, outside the ${length} messages`);
  const c: Compaction = {
    policy: value.policy,
    from,
    to,
    turn: count(value.turn, `${at}.turn`),
    tokensBefore: count(value.tokensBefore, `${at}.tokensBefore`),
    tokensAfter: count(value.tokensAfter, `${at}.tokensAfter`),
  };
  if (value.cleared !== undefined) {
    if (!Array.isArray(value.cleared) || value.cleared.some((id) => typeof id !== 'string'))
      throw new TypeError(`${at}.cleared is not an array of call ids`);
    c.cleared = [...(value.cleared as string[])];
  }
  if (value.replacement !== undefined) {
    const replacement = parseHistory(value.replacement);
    const problem = replacement.some((m) => m.role === 'system' || m.thinking !== undefined)
      ? 'a system message or thinking block'
      : pairProblem(replacement);
    if (problem !== undefined) throw new TypeError(`${at}.replacement has ${problem}`);
    c.replacement = replacement;
  }
  if (value.edits !== undefined) {
    if (!Array.isArray(value.edits)) throw new TypeError(`${at}.edits is not an array`);
    c.edits = value.edits.map((e, i) => readEdit(e, `${at}.edits[${i}]`));
  }
  if (value.usage !== undefined) {
    if (!isRecord(value.usage)) throw new TypeError(`${at}.usage is not an object`);
    const usage: Usage = {
      inputTokens: count(value.usage.inputTokens, `${at}.usage.inputTokens`),
      outputTokens: count(value.usage.outputTokens, `${at}.usage.outputTokens`),
    };
    c.usage = usage;
  }
  return c;
}

/**
 * Reads compactions (a state's `compactions`, or a stored column's JSON text) as untrusted input
 * for a conversation of `length` messages (system message not counted): positions in range,
 * replacements self-contained. Throws a `TypeError` naming the field. Internal.
 */
export function readCompactions(value: unknown, length: number): Compaction[] {
  if (value === undefined || value === null) return [];
  let parsed: unknown = value;
  if (typeof value === 'string') {
    try {
      parsed = JSON.parse(value);
    } catch (cause) {
      throw new TypeError(`compactions are not JSON (${describeError(cause)})`, { cause });
    }
  }
  if (!Array.isArray(parsed)) throw new TypeError('compactions is not an array');
  return parsed.map((c, i) => readOne(c, `compactions[${i}]`, length));
}
