import { throwIfCancelled } from '../core/errors/cancellation';
import type { Delta, ThinkingDelta } from '../core/contract/delta';
import type { DeltaHandler } from '../core/contract/model';
import type { ModelResponse } from '../core/contract/response';

/** How a test double turns a response into stream fragments. */
export interface ReplayStyle {
  /** Send each tool call's arguments as one `argsFragment` on its (only) fragment. */
  readonly argsFragments: boolean;
  /** Splits non-empty content into the content fragments, in order. */
  readonly chunkContent: (content: string) => string[];
}

/** The scripted double's style: one content fragment, tool calls without arguments. */
export const SCRIPTED_REPLAY: ReplayStyle = { argsFragments: false, chunkContent: (c) => [c] };

/**
 * Replays `response` to `onDelta`: one thinking fragment per block (index = block position),
 * then the content fragments, then one fragment per tool call (index = call position, with its id
 * and name). Each handler call is awaited before the next; a handler error propagates as-is. The
 * signal is checked before every fragment. A null or undefined handler discards everything.
 */
export async function replayResponse(
  response: ModelResponse,
  onDelta: DeltaHandler | null | undefined,
  signal: AbortSignal | undefined,
  style: ReplayStyle,
): Promise<void> {
  if (onDelta === null || onDelta === undefined) return;
  for (const delta of deltasOf(response, style)) {
    throwIfCancelled(signal);
    await onDelta(delta);
  }
  throwIfCancelled(signal);
}

function deltasOf(response: ModelResponse, style: ReplayStyle): Delta[] {
  const deltas: Delta[] = [];
  const message = response.message;
  (message.thinking ?? []).forEach((block, index) => {
    const fragment: ThinkingDelta = { index };
    if (block.text !== undefined) fragment.text = block.text;
    if (block.signature !== undefined) fragment.signature = block.signature;
    deltas.push({ thinking: [fragment] });
  });
  const content = message.content ?? '';
  if (content !== '')
    for (const chunk of style.chunkContent(content)) deltas.push({ content: chunk });
  (message.toolCalls ?? []).forEach((call, index) => {
    deltas.push({
      toolCalls: [
        style.argsFragments
          ? { index, id: call.id, name: call.name, argsFragment: call.args }
          : { index, id: call.id, name: call.name },
      ],
    });
  });
  return deltas;
}
