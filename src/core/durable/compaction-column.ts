import type { Message } from '../contract/message';
import type { Compaction } from '../engine/compaction';
import { compactionsJson, readCompactions } from '../engine/compaction-record';
import { describeError } from '../kit/error-base';
import { StoreError } from './store-error';

/** Compactions as a stored row's `compactions` column: JSON text, or `null` for none. Internal. */
export function compactionsColumn(compactions: readonly Compaction[]): string | null {
  return compactions.length === 0 ? null : compactionsJson(compactions);
}

/**
 * A stored row's `compactions` column read back for its `messages` (system message not counted);
 * damaged data is a `corrupt` StoreError naming the row. Internal.
 */
export function readCompactionsColumn(
  value: string | null | undefined,
  messages: readonly Message[],
  kind: 'run' | 'conversation',
  id: string,
): Compaction[] {
  if (value === null || value === undefined) return [];
  const length = messages.filter((m) => m.role !== 'system').length;
  try {
    return readCompactions(value, length);
  } catch (cause) {
    throw new StoreError(`stored ${kind} ${JSON.stringify(id)}: ${describeError(cause)}`, {
      reason: 'corrupt',
      cause,
    });
  }
}
