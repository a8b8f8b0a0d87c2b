import type { RunError } from '../core/engine/errors';
import type { Result } from '../core/engine/result';
import type { GolemMessageMetadata, UIFinishReason, UIMessageChunk } from './chunk-types';

const FINISH_REASONS: Readonly<Record<string, UIFinishReason>> = {
  stop: 'stop',
  length: 'length',
  content_filter: 'content-filter',
  tool_calls: 'tool-calls',
};

/** A completed run's reason: a cut-off answer stays visible, anything else is `stop`. */
function completedReason(providerReason: string | undefined): UIFinishReason {
  const mapped = providerReason === undefined ? undefined : FINISH_REASONS[providerReason];
  return mapped === 'length' || mapped === 'content-filter' ? mapped : 'stop';
}

/**
 * The `finish` chunk of a run that ended: `tool-calls` when it paused (with the pending call
 * ids), else the last turn's reason; Golem's metadata with `extra` over it. Internal.
 */
export function finishChunk<Output>(
  result: Result<Output>,
  lastFinishReason: string | undefined,
  extra: Record<string, unknown> | undefined,
): UIMessageChunk {
  const golem: GolemMessageMetadata = { usage: { ...result.usage } };
  if (result.runId !== undefined) golem.runId = result.runId;
  golem.pending =
    result.pending === undefined
      ? null
      : {
          approvals: result.pending.approvals.map((c) => c.callId),
          external: result.pending.external.map((c) => c.callId),
        };
  const finishReason: UIFinishReason =
    result.pending !== undefined ? 'tool-calls' : completedReason(lastFinishReason);
  return { type: 'finish', finishReason, messageMetadata: { ...golem, ...extra } };
}

/** The `finish` chunk after a failed run's `error` chunk: its stage, usage and id. Internal. */
export function failedFinishChunk(
  error: RunError,
  extra: Record<string, unknown> | undefined,
): UIMessageChunk {
  const golem: GolemMessageMetadata = { stage: error.stage, pending: null };
  if (error.partial !== undefined) golem.usage = { ...error.partial.usage };
  if (error.runId !== undefined) golem.runId = error.runId;
  return { type: 'finish', finishReason: 'error', messageMetadata: { ...golem, ...extra } };
}

/** A tool call's raw arguments parsed for the UI; empty arguments are `{}`. Internal. */
export function parseArgs(args: string): { ok: true; value: unknown } | { ok: false } {
  if (args.trim() === '') return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(args) as unknown };
  } catch {
    return { ok: false };
  }
}
