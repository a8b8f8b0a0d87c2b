import type { Citation, HostedToolCall } from '../../core/contract/evidence';
import { isRecord } from '../../core/kit/guards';
import type { Message, ToolCall } from '../../core/contract/message';
import type { ContextEdit, ModelResponse } from '../../core/contract/response';
import type { ThinkingBlock } from '../../core/contract/thinking';
import type { Usage } from '../../core/contract/usage';
import { usageOf } from '../../core/contract/usage';
import { stampBlock, type ThinkingOrigin } from '../shared/provenance';

/** `stop_reason` → normalised finish reason; unknown values pass through lower-cased. */
const FINISH: Readonly<Record<string, string>> = {
  end_turn: 'stop',
  stop_sequence: 'stop',
  max_tokens: 'length',
  model_context_window_exceeded: 'length',
  tool_use: 'tool_calls',
  refusal: 'content_filter',
};

/** The normalised finish reason of a `stop_reason`. */
export function finishReasonOf(stopReason: unknown): string | undefined {
  if (typeof stopReason !== 'string' || stopReason === '') return undefined;
  return FINISH[stopReason] ?? stopReason.toLowerCase();
}

/** Token counts as reported; a later report (the stream's `message_delta`) overrides per field. */
export interface WireUsage {
  input?: number;
  cacheCreation?: number;
  cacheRead?: number;
  output?: number;
}

function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0
    ? Math.floor(value)
    : undefined;
}

/** Reads a wire `usage` object over `previous` (fields absent from it keep their old value). */
export function readUsage(value: unknown, previous: WireUsage = {}): WireUsage {
  if (!isRecord(value)) return previous;
  return {
    input: count(value.input_tokens) ?? previous.input,
    cacheCreation: count(value.cache_creation_input_tokens) ?? previous.cacheCreation,
    cacheRead: count(value.cache_read_input_tokens) ?? previous.cacheRead,
    output: count(value.output_tokens) ?? previous.output,
  };
}

/**
 * Neutral usage: input counts every prompt token the request processed — `input_tokens` plus
 * cache writes and cache reads (the API reports them apart, `input_tokens` excluding both); cache
 * reads and writes are also reported on their own. Output is `output_tokens` (thinking included;
 * the API reports no separate reasoning count).
 */
export function toUsage(usage: WireUsage): Usage {
  return usageOf(
    (usage.input ?? 0) + (usage.cacheCreation ?? 0) + (usage.cacheRead ?? 0),
    usage.output ?? 0,
    { cacheReadTokens: usage.cacheRead, cacheWriteTokens: usage.cacheCreation },
  );
}

/** The parts of an assistant turn, in provider order. */
export interface AssembledTurn {
  text: string;
  toolCalls: ToolCall[];
  thinking: ThinkingBlock[];
  usage: WireUsage;
  stopReason: unknown;
  model: unknown;
  /** The message's `id` (`msg_…`), when it has one. */
  id?: unknown;
  /** Who produced the turn; its thinking blocks are stamped with it. */
  origin?: ThinkingOrigin | undefined;
  /** Server tool calls (web search) the API ran during the turn. */
  hostedToolCalls?: HostedToolCall[];
  /** Sources the text cites. */
  citations?: Citation[];
  /** The context edits the API applied before the model read the request. */
  contextEdits?: ContextEdit[] | undefined;
}

/** A thinking block from wire fields; empty strings are left out. */
export function thinkingBlock(text: string, signature: string): ThinkingBlock | undefined {
  const block: ThinkingBlock = {};
  if (text !== '') block.text = text;
  if (signature !== '') block.signature = signature;
  return block.text === undefined && block.signature === undefined ? undefined : block;
}

/** The normalised response of an assembled turn (the same for `generate` and `stream`). */
export function toResponse(turn: AssembledTurn): ModelResponse {
  const message: Message = { role: 'assistant' };
  if (turn.text !== '') message.content = turn.text;
  if (turn.toolCalls.length > 0) message.toolCalls = turn.toolCalls;
  if (turn.thinking.length > 0)
    message.thinking =
      turn.origin === undefined
        ? turn.thinking
        : turn.thinking.map((block) => stampBlock(block, turn.origin as ThinkingOrigin));
  if (turn.hostedToolCalls !== undefined && turn.hostedToolCalls.length > 0)
    message.hostedToolCalls = turn.hostedToolCalls;
  if (turn.citations !== undefined && turn.citations.length > 0) message.citations = turn.citations;
  const response: ModelResponse = { message, usage: toUsage(turn.usage) };
  const finishReason = finishReasonOf(turn.stopReason);
  if (finishReason !== undefined) response.finishReason = finishReason;
  if (typeof turn.model === 'string' && turn.model !== '') response.modelName = turn.model;
  if (typeof turn.id === 'string' && turn.id !== '') response.responseId = turn.id;
  if (turn.contextEdits !== undefined && turn.contextEdits.length > 0)
    response.contextEdits = turn.contextEdits;
  return response;
}
