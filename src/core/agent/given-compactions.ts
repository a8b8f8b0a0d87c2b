import type { Message } from '../contract/message';
import type { Compaction } from '../engine/compaction';
import { compactionsJson, readCompactions } from '../engine/compaction-record';
import { RunInputError } from '../engine/errors';
import { describeError } from '../kit/error-base';
import { isArrayValue } from '../kit/guards';

/**
 * A run's `compactions` option, checked like untrusted input against the run's messages (the
 * prompt included; system message not counted) and copied. Internal.
 */
export function givenCompactions(
  given: readonly Compaction[],
  messages: readonly Message[],
): Compaction[] {
  if (!isArrayValue(given)) throw new RunInputError('compactions must be an array');
  const length = messages.filter((m) => m.role !== 'system').length;
  try {
    return readCompactions(compactionsJson(given), length);
  } catch (cause) {
    throw new RunInputError(
      `compactions do not fit the history: ${describeError(cause)} (pass a result's compactions with that result's messages)`,
      { cause },
    );
  }
}
