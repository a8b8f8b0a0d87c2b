import type {
  ContentBlock,
  ConverseCommandOutput,
  ReasoningContentBlock,
  TokenUsage,
} from '@aws-sdk/client-bedrock-runtime';
import type { Message, ToolCall } from '../../core/contract/message';
import { ModelProtocolError } from '../../core/errors/provider-errors';
import type { ModelResponse } from '../../core/contract/response';
import type { ThinkingBlock } from '../../core/contract/thinking';
import type { Usage } from '../../core/contract/usage';
import { usageOf as neutralUsage } from '../../core/contract/usage';
import { stampBlock } from '../shared/provenance';
import { PROVIDER } from './sdk';

const FINISH_REASONS: Record<string, string> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  tool_use: 'tool_calls',
  max_tokens: 'length',
  guardrail_intervened: 'content_filter',
  content_filtered: 'content_filter',
};

/**
 * Normalised finish reason: end_turn/stop_sequence → stop, tool_use → tool_calls, max_tokens →
 * length, guardrail_intervened/content_filtered → content_filter, anything else lower-cased raw.
 */
export function finishReasonOf(stopReason: string | undefined): string | undefined {
  if (stopReason === undefined) return undefined;
  return FINISH_REASONS[stopReason] ?? stopReason.toLowerCase();
}

/**
 * Usage from Converse token counts; absent counts are zero. Converse reports `inputTokens`
 * without the cache reads and writes (like Anthropic), so input is their sum; cache reads and
 * writes are also reported on their own. No reasoning count is reported apart.
 */
export function usageOf(usage: TokenUsage | undefined): Usage {
  const read = usage?.cacheReadInputTokens ?? 0;
  const write = usage?.cacheWriteInputTokens ?? 0;
  return neutralUsage((usage?.inputTokens ?? 0) + read + write, usage?.outputTokens ?? 0, {
    cacheReadTokens: read,
    cacheWriteTokens: write,
  });
}

/** Opaque redacted reasoning bytes as the base64 text golem stores. */
export function redactedText(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
}

/** A Bedrock-provided call id, or a deterministic `call-<n>` (1-based) when the provider sent none. */
export function callId(id: string | undefined, position: number): string {
  return id !== undefined && id !== '' ? id : `call-${position + 1}`;
}

/** The pieces an assistant message is built from, in provider order. */
export interface AssistantParts {
  text: string;
  toolCalls: ToolCall[];
  thinking: ThinkingBlock[];
}

/**
 * The golem assistant message for collected parts (empty fields omitted); thinking blocks are
 * stamped as produced by Bedrock's `modelId`.
 */
export function assistantMessageOf(parts: AssistantParts, modelId: string): Message {
  const message: Message = { role: 'assistant' };
  if (parts.text !== '') message.content = parts.text;
  if (parts.toolCalls.length > 0) message.toolCalls = parts.toolCalls;
  if (parts.thinking.length > 0)
    message.thinking = parts.thinking.map((block) =>
      stampBlock(block, { provider: PROVIDER, model: modelId }),
    );
  return message;
}

/**
 * Normalises a Converse response: text blocks joined in order, `toolUse` blocks to tool calls
 * (args = the input document as JSON text, `{}` when empty), `reasoningContent` to thinking
 * blocks (signed text or redacted bytes as base64), usage, finish reason. A response without an
 * output message is a `ModelProtocolError`.
 */
export function fromConverseOutput(output: ConverseCommandOutput, modelId: string): ModelResponse {
  const content = output.output?.message?.content;
  if (content === undefined)
    throw new ModelProtocolError(PROVIDER, 'the Converse response has no output message');
  const parts: AssistantParts = { text: '', toolCalls: [], thinking: [] };
  for (const block of content) addBlock(parts, block);
  const response: ModelResponse = {
    message: assistantMessageOf(parts, modelId),
    usage: usageOf(output.usage),
    modelName: modelId,
  };
  const finishReason = finishReasonOf(output.stopReason);
  if (finishReason !== undefined) response.finishReason = finishReason;
  return response;
}

function addBlock(parts: AssistantParts, block: ContentBlock): void {
  if (block.text !== undefined) {
    parts.text += block.text;
  } else if (block.toolUse !== undefined) {
    const input: unknown = block.toolUse.input;
    const args = input === undefined || input === null ? '{}' : JSON.stringify(input);
    parts.toolCalls.push({
      id: callId(block.toolUse.toolUseId, parts.toolCalls.length),
      name: block.toolUse.name ?? '',
      args: args === '' ? '{}' : args,
    });
  } else if (block.reasoningContent !== undefined) {
    const thinking = thinkingOf(block.reasoningContent);
    if (thinking !== undefined) parts.thinking.push(thinking);
  }
}

function thinkingOf(reasoning: ReasoningContentBlock): ThinkingBlock | undefined {
  if (reasoning.reasoningText !== undefined) {
    const { text, signature } = reasoning.reasoningText;
    return signature === undefined || signature === ''
      ? { text: text ?? '' }
      : { text: text ?? '', signature };
  }
  if (reasoning.redactedContent !== undefined)
    return { redacted: redactedText(reasoning.redactedContent) };
  return undefined;
}
