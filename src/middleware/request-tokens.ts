import type { ModelRequest } from '../core/contract/request';
import { estimateTokens, messageCounter } from '../core/engine/context-tokens';

const countMessage = messageCounter(estimateTokens);

/**
 * Estimated input tokens of `request` (four characters a token, a flat amount per media part,
 * tool definitions and the output schema included): what rate limits and spend caps hold before
 * a call, corrected by the usage it reports. Internal.
 */
export function estimateInputTokens(request: ModelRequest): number {
  let tokens = 0;
  for (const message of request.messages) tokens += countMessage(message);
  for (const tool of request.tools)
    tokens += estimateTokens(tool.name + tool.description + JSON.stringify(tool.schema));
  if (request.outputSchema !== undefined)
    tokens += estimateTokens(JSON.stringify(request.outputSchema));
  return tokens;
}

/** The output tokens a call may produce: its `maxTokens`, else `reserve`. Internal. */
export function reservedOutputTokens(request: ModelRequest, reserve: number): number {
  const max = request.settings?.maxTokens;
  return typeof max === 'number' && Number.isFinite(max) && max > 0 ? Math.ceil(max) : reserve;
}
