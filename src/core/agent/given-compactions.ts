import type { Message } from '../contract/message';
import type { Compaction } from '../engine/compaction';
import { compactionsJson, readCompactions } from '../engine/compaction-record';
import { RunInputError } from '../engine/errors';
import { describeError } from '../kit/error-base';
import { isArrayValue } from '../kit/guards';
import type { HistoryProcessor } from '../engine/history-processor';

/**
 * The compactions a run starts with: none when the agent has a `historyProcessor` and they came
 * with a stored conversation (the processor may have moved the positions they name; the run
 * compacts afresh), a `RunInputError` when the caller passed them with `history` to such an agent
 * (the same reason), else the given ones, checked. Internal.
 */
export function carriedCompactions(
  options: { compactions?: readonly Compaction[] | undefined; conversation?: string | undefined },
  messages: readonly Message[],
  processor: HistoryProcessor | undefined,
): Compaction[] {
  const given = options.compactions;
  if (given === undefined || given.length === 0) return [];
  if (processor === undefined) return givenCompactions(given, messages);
  if (options.conversation !== undefined) return [];
  throw new RunInputError(
    'compactions cannot be passed to an agent with a historyProcessor: the processor may move the positions they name; drop one of them',
  );
}

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
