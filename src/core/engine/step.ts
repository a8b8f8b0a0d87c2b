import type { Message, ToolCall } from '../contract/message';
import type { PendingToolCalls } from './deferred-types';

/**
 * Where a run enters the loop, as data: every door (a fresh run, a stream, a stored run continued
 * after a crash) builds one and passes it to the one entry, `executeRun`. Internal.
 *
 * - `model`: call the model (a fresh run, or every call of the last turn has its result);
 * - `batch`: the last turn's calls were cut short — run `calls` (those that never started, and
 *   in-flight idempotent ones) as a turn's batch does, then pause on `waiting` (calls that wait
 *   for a decision) together with any the batch defers;
 * - `decode`: the last turn (a final answer or an output-tool call) is committed; decode it
 *   without calling the model.
 */
export type Step =
  | { readonly kind: 'model' }
  | {
      readonly kind: 'batch';
      readonly calls: readonly ToolCall[];
      readonly waiting: PendingToolCalls;
    }
  | { readonly kind: 'decode'; readonly message: Message };

/** The step of a run that starts with a model call. Internal. */
export const MODEL_STEP: Step = { kind: 'model' };
