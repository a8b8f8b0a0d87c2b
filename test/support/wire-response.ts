/**
 * Compares what an adapter decoded from the wire, without the provenance adapters stamp on
 * reasoning (`provider`/`model` on thinking blocks, `signatureProvider`/`signatureModel` on
 * signed calls): the documented-wire suites assert the decoded content.
 */
import type { ModelResponse, ThinkingBlock, ToolCall } from 'golem';

/** A thinking block without its provenance stamp. */
export function wireThinking(block: ThinkingBlock): ThinkingBlock {
  const { provider: _provider, model: _model, ...wire } = block;
  return wire;
}

/** A tool call without the issuer of its signature. */
export function wireCall(call: ToolCall): ToolCall {
  const { signatureProvider: _provider, signatureModel: _model, ...wire } = call;
  return wire;
}

/** The response with provenance removed from its thinking blocks and calls (a copy). */
export function wireResponse(response: ModelResponse): ModelResponse {
  const { thinking, toolCalls } = response.message;
  const message = { ...response.message };
  if (thinking !== undefined) message.thinking = thinking.map(wireThinking);
  if (toolCalls !== undefined) message.toolCalls = toolCalls.map(wireCall);
  return { ...response, message };
}
