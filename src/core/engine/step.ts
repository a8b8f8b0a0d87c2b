import type { Message, ToolCall } from '../contract/message';
import type { Approval, PendingToolCalls } from './deferred-types';
import type { EngineConfig } from './run-config';

/**
 * A decision about one pending call, taken before any call of the step runs: an approval (granted
 * or denied, with a reason) or an external result. Internal.
 */
export type Resolution = { readonly call: ToolCall } & (
  | { readonly kind: 'approval'; readonly approval: Approval }
  | { readonly kind: 'external'; readonly text: string }
);

/**
 * Where a run enters the loop, as data: every door (a fresh run, a stream, a stored run continued
 * after a crash) builds one and passes it to the one entry, `executeRun`. Internal.
 *
 * - `model`: call the model (a fresh run, or every call of the last turn has its result);
 * - `batch`: the last turn's calls were cut short — run `calls` (those that never started, and
 *   in-flight idempotent ones) as a turn's batch does, then pause on `waiting` (calls that wait
 *   for a decision) together with any the batch defers;
 * - `decode`: the last turn (a final answer or an output-tool call) is committed; decode it
 *   without calling the model;
 * - `resolve`: a paused run's pending calls, each with its decision (`resume`): denials and
 *   external results are recorded before any approved call re-runs; the results take their
 *   calls' places in the history, which then gets `system` (the resolved instructions; `''` for
 *   none) as its one system message and `prompt` (if any) last; then a model call.
 */
export type Step =
  | { readonly kind: 'model' }
  | {
      readonly kind: 'batch';
      readonly calls: readonly ToolCall[];
      readonly waiting: PendingToolCalls;
    }
  | { readonly kind: 'decode'; readonly message: Message }
  | {
      readonly kind: 'resolve';
      readonly resolutions: readonly Resolution[];
      readonly system: string;
      readonly prompt: Message | undefined;
    };

/** The steps the loop itself enters at (`executeRun` takes a `resolve` step first). Internal. */
export type LoopStep = Exclude<Step, { kind: 'resolve' }>;

/** The step of a run that starts with a model call. Internal. */
export const MODEL_STEP: LoopStep = { kind: 'model' };

/** Whether a turn with `calls` ends the loop: no calls, or a call of the output tool. */
export function endsLoop<Deps>(config: EngineConfig<Deps>, calls: readonly ToolCall[]): boolean {
  const outputName = config.outputTool?.name;
  return (
    calls.length === 0 || (outputName !== undefined && calls.some((c) => c.name === outputName))
  );
}
