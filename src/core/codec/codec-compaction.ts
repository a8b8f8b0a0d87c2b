import type { CompactionItem, Message } from '../contract/message';
import { HistoryFormatError } from '../errors/history-error';
import * as check from './codec-fields';

/**
 * The durable JSON of a message's provider compaction item (`compaction`, added additively
 * after the evidence fields): `{provider, model?, id?, data}`. `null` reads as absent; an object
 * without a non-empty `provider` and `data`, or with a wrongly typed field, is a
 * `HistoryFormatError` naming it. Unknown keys are ignored.
 */

/** String keys of a compaction item, in contract order. */
const KEYS = ['provider', 'model', 'id', 'data'] as const;

/** The `"compaction":{…}` member of `m`, or nothing when it has none. */
export function encodeCompaction(m: check.Fields, index: number | undefined): string[] {
  const item = readItem(m, index);
  if (item === undefined) return [];
  const out = KEYS.filter((key) => item[key] !== undefined).map(
    (key) => `"${key}":${JSON.stringify(item[key])}`,
  );
  return [`"compaction":{${out.join(',')}}`];
}

/** Reads the compaction item of stored message `m` onto `message`. */
export function readCompaction(message: Message, m: check.Fields, index: number): void {
  const item = readItem(m, index);
  if (item !== undefined) message.compaction = item;
}

function readItem(m: check.Fields, index: number | undefined): CompactionItem | undefined {
  const value = check.own(m, 'compaction');
  if (value === undefined || value === null) return undefined;
  const fields = check.record(value, index, 'compaction');
  const item: CompactionItem = {
    provider: required(fields, 'provider', index),
    data: required(fields, 'data', index),
  };
  const model = check.optionalString(fields, 'model', index, 'compaction');
  if (model !== undefined) item.model = model;
  const id = check.optionalString(fields, 'id', index, 'compaction');
  if (id !== undefined) item.id = id;
  return item;
}

function required(fields: check.Fields, key: string, index: number | undefined): string {
  const text = check.optionalString(fields, key, index, 'compaction');
  if (text === undefined)
    throw new HistoryFormatError(index, `compaction.${key}`, 'must be a non-empty string');
  return text;
}
