import type { RecallHit } from '../../core/durable/recall-port';
import { StoreError } from '../../core/durable/store-error';
import type { JsonValue } from '../../core/kit/json';

/** The entry columns the SQL recall stores read back (both dialects name them alike). Internal. */
export const RECALL_COLUMNS = [
  'owner',
  'id',
  'kind',
  'conversation_id',
  'position',
  'document_id',
  'text',
  'metadata',
  'created_at',
] as const;

/** A row of {@link RECALL_COLUMNS} as a hit's entry; a row that does not decode is `corrupt`. */
export function fromRecallRow(label: string, row: Record<string, unknown>): RecallHit['entry'] {
  const kind = row.kind;
  if (
    typeof row.owner !== 'string' ||
    typeof row.id !== 'string' ||
    (kind !== 'message' && kind !== 'document') ||
    typeof row.text !== 'string'
  )
    throw corrupt(label, row);
  const entry: RecallHit['entry'] = {
    id: row.id,
    owner: row.owner,
    kind,
    text: row.text,
    createdAt: Number(row.created_at),
  };
  if (typeof row.conversation_id === 'string') entry.conversationId = row.conversation_id;
  if (row.position !== null && row.position !== undefined) entry.position = Number(row.position);
  if (typeof row.document_id === 'string') entry.documentId = row.document_id;
  if (typeof row.metadata === 'string') {
    try {
      entry.metadata = JSON.parse(row.metadata) as Record<string, JsonValue>;
    } catch (error) {
      throw corrupt(label, row, error);
    }
  }
  return entry;
}

function corrupt(label: string, row: Record<string, unknown>, cause?: unknown): StoreError {
  const id = typeof row.id === 'string' ? ` ${JSON.stringify(row.id.slice(0, 100))}` : '';
  return new StoreError(
    `${label}: the stored recall entry${id} does not decode; restore the table from a backup or delete the entry`,
    { reason: 'corrupt', cause },
  );
}
