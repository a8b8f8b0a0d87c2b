import type { JsonValue } from '../kit/json';
import { isRecord } from '../kit/guards';
import { corrupt } from './corrupt-row';

/** The thread fields of a stored conversation row. */
type ThreadRow = { readonly id: string; readonly title?: unknown; readonly metadata?: unknown };

/** A stored conversation's title: text or nothing; anything else is `corrupt`. */
export function readTitle(row: ThreadRow): string | undefined {
  const title = row.title;
  if (title === null || title === undefined) return undefined;
  if (typeof title !== 'string') throw corrupt('conversation', row.id, 'title is not text');
  return title;
}

/** A stored conversation's metadata: a JSON object or nothing; anything else is `corrupt`. */
export function readMetadata(row: ThreadRow): Record<string, JsonValue> | undefined {
  const text = row.metadata;
  if (text === null || text === undefined) return undefined;
  let value: unknown;
  try {
    value = typeof text === 'string' ? (JSON.parse(text) as unknown) : undefined;
  } catch (cause) {
    throw corrupt('conversation', row.id, 'metadata is not valid JSON', cause);
  }
  if (!isRecord(value)) throw corrupt('conversation', row.id, 'metadata is not a JSON object');
  return value as Record<string, JsonValue>;
}
