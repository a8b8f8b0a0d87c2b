import { ModelResponseError } from '../errors/errors';
import type { Message, ToolCall } from '../contract/message';
import type { ModelResponse } from '../contract/response';
import type { ThinkingBlock } from '../contract/thinking';
import type { Usage } from '../contract/usage';
import { USAGE_DETAILS, type UsageDetail } from '../contract/usage';
import { isRecord } from '../kit/guards';
import { escapeLoneSurrogates } from '../kit/lone-surrogates';
import { showValue } from '../kit/error-base';
import { normaliseEvidence } from './response-evidence';
import { contextEditsOf } from './compaction-record';

/**
 * Validates and normalises what a model returned, without mutating it: the role defaults to
 * assistant, missing call ids get deterministic ids (`golem_<request>_<index>`), duplicate ids in
 * one response get stable suffixes, missing args become `{}`, lone surrogates in args text become
 * `\uXXXX` escapes, absent usage is zeros. Anything else malformed throws `ModelResponseError`
 * carrying the raw response.
 */
export function normaliseResponse(raw: unknown, requestNumber: number): ModelResponse {
  if (typeof raw !== 'object' || raw === null)
    throw new ModelResponseError('the model returned no response object', raw);
  const response = raw as Partial<Record<keyof ModelResponse, unknown>>;
  const message = response.message;
  if (!isRecord(message)) throw new ModelResponseError('the response has no message', raw);
  const role = message.role ?? 'assistant';
  if (role !== 'assistant')
    throw new ModelResponseError(
      `the response message has role ${showValue(role)}; expected "assistant"`,
      raw,
    );
  const normalised: Message = { role: 'assistant' };
  if (message.content !== undefined && message.content !== null) {
    if (typeof message.content !== 'string')
      throw new ModelResponseError('the response content is not a string', raw);
    if (message.content !== '') normalised.content = message.content;
  }
  const calls = normaliseCalls(message.toolCalls, requestNumber, raw);
  if (calls.length > 0) normalised.toolCalls = calls as ToolCall[];
  const thinking = normaliseThinking(message.thinking, raw);
  if (thinking.length > 0) normalised.thinking = thinking as ThinkingBlock[];
  // Hosted tools, citations, response id, compaction: read only when the message has any.
  if (
    message.hostedToolCalls !== undefined ||
    message.citations !== undefined ||
    message.responseId !== undefined ||
    message.compaction !== undefined
  )
    Object.assign(normalised, normaliseEvidence(message, raw));
  const result: ModelResponse = { message: normalised, usage: normaliseUsage(response.usage) };
  if (typeof response.finishReason === 'string') result.finishReason = response.finishReason;
  if (typeof response.modelName === 'string') result.modelName = response.modelName;
  if (typeof response.responseId === 'string' && response.responseId !== '')
    result.responseId = response.responseId;
  const edits =
    response.contextEdits === undefined ? undefined : contextEditsOf(response.contextEdits);
  if (edits !== undefined) result.contextEdits = edits;
  return result;
}

const NO_CALLS: readonly ToolCall[] = [];

function normaliseCalls(value: unknown, requestNumber: number, raw: unknown): readonly ToolCall[] {
  if (value === undefined || value === null) return NO_CALLS;
  if (!Array.isArray(value)) throw new ModelResponseError('toolCalls is not an array', raw);
  // Ids seen so far; a response with one call cannot repeat one (no set for it).
  const seen = value.length > 1 ? new Set<string>() : undefined;
  const calls: ToolCall[] = [];
  for (let index = 0; index < value.length; index++) {
    const entry: unknown = value[index];
    if (typeof entry !== 'object' || entry === null)
      throw new ModelResponseError(`toolCalls[${index}] is not an object`, raw);
    const call = entry as Partial<Record<keyof ToolCall, unknown>>;
    if (typeof call.name !== 'string' || call.name === '')
      throw new ModelResponseError(`toolCalls[${index}] has no tool name`, raw);
    if (call.id !== undefined && call.id !== null && typeof call.id !== 'string') {
      throw new ModelResponseError(`toolCalls[${index}].id is not a string`, raw);
    }
    let id =
      typeof call.id === 'string' && call.id !== '' ? call.id : `golem_${requestNumber}_${index}`;
    if (seen !== undefined) {
      const base = id;
      for (let n = index; seen.has(id); n++) id = `${base}_${n}`;
      seen.add(id);
    }
    const normalised: ToolCall = {
      id,
      name: call.name,
      args: normaliseArgs(call.args, index, raw),
    };
    // Read by name, not by a loop over the keys (a computed key is a megamorphic load per call).
    const { signature, signatureProvider, signatureModel } = call;
    if (typeof signature === 'string' && signature !== '') normalised.signature = signature;
    if (typeof signatureProvider === 'string' && signatureProvider !== '')
      normalised.signatureProvider = signatureProvider;
    if (typeof signatureModel === 'string' && signatureModel !== '')
      normalised.signatureModel = signatureModel;
    calls.push(normalised);
  }
  return calls;
}

function normaliseArgs(args: unknown, index: number, raw: unknown): string {
  if (args === undefined || args === null || args === '') return '{}';
  // A lone surrogate is kept as its \uXXXX escape (the same JSON value), so history holding
  // these args survives UTF-8 storage byte for byte.
  if (typeof args === 'string') return escapeLoneSurrogates(args);
  if (typeof args === 'object') return JSON.stringify(args);
  throw new ModelResponseError(`toolCalls[${index}].args must be JSON text`, raw);
}

const NO_THINKING: readonly ThinkingBlock[] = [];
const THINKING_KEYS = ['text', 'signature', 'redacted', 'provider', 'model', 'id'] as const;

function normaliseThinking(value: unknown, raw: unknown): readonly ThinkingBlock[] {
  if (value === undefined || value === null) return NO_THINKING;
  if (!Array.isArray(value)) throw new ModelResponseError('thinking is not an array', raw);
  const blocks = value.map((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null)
      throw new ModelResponseError(`thinking[${index}] is not an object`, raw);
    const block: ThinkingBlock = {};
    for (const key of THINKING_KEYS) {
      const field = (entry as Record<string, unknown>)[key];
      if (field === undefined || field === null || field === '') continue;
      if (typeof field !== 'string')
        throw new ModelResponseError(`thinking[${index}].${key} is not a string`, raw);
      block[key] = field;
    }
    return block;
  });
  // A block with no text, signature or redacted data carries nothing replayable; keeping it would
  // make the evidence invalid as history.
  return blocks.filter(
    (b) => b.text !== undefined || b.redacted !== undefined || b.signature !== undefined,
  );
}

/**
 * The detail counters `normaliseUsage` reads by name. `satisfies` fails to compile when
 * `USAGE_DETAILS` gains one: add it here and to that check.
 */
const _NAMED_DETAILS = {
  cacheReadTokens: true,
  cacheWriteTokens: true,
  reasoningTokens: true,
  cachedResponses: true,
} as const satisfies Record<UsageDetail, true>;

function normaliseUsage(value: unknown): Usage {
  const usage = (typeof value === 'object' && value !== null ? value : {}) as Partial<
    Record<keyof Usage, unknown>
  >;
  const normalised: Usage = {
    inputTokens: tokenCount(usage.inputTokens),
    outputTokens: tokenCount(usage.outputTokens),
  };
  // Detail counters stay absent unless reported: "not reported" differs from zero. Most usage
  // reports have none: read by name (fast; see _NAMED_DETAILS), the loop only when one is there.
  if (
    usage.cacheReadTokens === undefined &&
    usage.cacheWriteTokens === undefined &&
    usage.reasoningTokens === undefined &&
    usage.cachedResponses === undefined
  )
    return normalised;
  for (const key of USAGE_DETAILS) {
    const detail = (usage as Record<string, unknown>)[key];
    if (typeof detail === 'number' && Number.isFinite(detail)) normalised[key] = tokenCount(detail);
  }
  return normalised;
}

/** A reported count as a non-negative integer (anything else: 0). */
function tokenCount(n: unknown): number {
  return typeof n === 'number' && Number.isFinite(n) && n > 0 ? Math.floor(n) : 0;
}
