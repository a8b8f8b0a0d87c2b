/**
 * The recorded view: our normalised `ModelResponse` shown in the terms the third-party fixtures'
 * `*.expected.json` state (../shared/fixtures/providers, read-only), so one comparison covers both.
 *
 * What the view changes, and nothing else:
 * - Provenance stamps (`provider`/`model` on thinking blocks, `signatureProvider`/`signatureModel`
 *   on signed calls) are ours, not the recording's: the view checks them (the provider is the
 *   adapter that decoded the response; the model, when given, is the one it was configured with)
 *   and removes them. A wrong stamp throws, so the comparison fails.
 * - Gemini's output count: `Usage.outputTokens` includes thoughts (`candidatesTokenCount +
 *   thoughtsTokenCount`), the fixtures state `candidatesTokenCount` alone with the thoughts apart
 *   (INDEX.md "Usage columns"), so the view shows `outputTokens − reasoningTokens`.
 *
 * `responseId` and the usage details (`cacheReadTokens`, `cacheWriteTokens`, `reasoningTokens`)
 * stay: the fixtures state them (`id`; cache/reasoning/thought counts), and {@link expectedDetails}
 * builds their expected values.
 */
import type { ModelResponse, ThinkingBlock, ToolCall, Usage } from 'golem';

/** The adapter a recorded response went through, as its reasoning stamps name it. */
export interface RecordedOrigin {
  /** Adapter id stamped on reasoning (`anthropic`, `openai`, `deepseek`, `gemini`, `bedrock`…). */
  provider: string;
  /** The model the adapter was configured with; when given, stamped models must equal it. */
  model?: string;
}

/** The response as the recorded fixtures state it (a copy; the response is not changed). */
export function recordedView(response: ModelResponse, origin: RecordedOrigin): ModelResponse {
  const { thinking, toolCalls } = response.message;
  const message = { ...response.message };
  if (thinking !== undefined) message.thinking = thinking.map((b) => unstampedBlock(b, origin));
  if (toolCalls !== undefined) message.toolCalls = toolCalls.map((c) => unstampedCall(c, origin));
  return { ...response, message, usage: recordedUsage(response.usage, origin.provider) };
}

/** Usage in the fixtures' counting (Gemini output without thoughts; others as they are). */
export function recordedUsage(usage: Usage, provider: string): Usage {
  if (provider !== 'gemini' || usage.reasoningTokens === undefined) return { ...usage };
  return { ...usage, outputTokens: usage.outputTokens - usage.reasoningTokens };
}

/**
 * A fixture's `usage` block as our detail counters: cache reads (Anthropic/Bedrock
 * `cache_read_input_tokens`, OpenAI `cached_input_tokens`, Gemini `cached_content_tokens`),
 * cache writes (Anthropic `cache_creation_input_tokens`, Bedrock `cache_write_input_tokens`) and
 * reasoning (OpenAI `reasoning_tokens`, Gemini `thoughts_tokens`). Like `Usage`, a detail is
 * present only when its count is positive (`0` and `null` mean none).
 */
export function expectedDetails(usage: Record<string, unknown>): Partial<Usage> {
  const details: Partial<Usage> = {};
  const first = (...keys: string[]): number => {
    for (const key of keys) {
      const value = usage[key];
      if (typeof value === 'number' && value > 0) return value;
    }
    return 0;
  };
  const read = first('cache_read_input_tokens', 'cached_input_tokens', 'cached_content_tokens');
  const write = first('cache_creation_input_tokens', 'cache_write_input_tokens');
  const reasoning = first('reasoning_tokens', 'thoughts_tokens');
  if (read > 0) details.cacheReadTokens = read;
  if (write > 0) details.cacheWriteTokens = write;
  if (reasoning > 0) details.reasoningTokens = reasoning;
  return details;
}

/** `{ responseId }` for a fixture's `id`, or nothing when the recording has none (Bedrock). */
export function expectedId(id: unknown): Pick<ModelResponse, 'responseId'> {
  return typeof id === 'string' && id !== '' ? { responseId: id } : {};
}

function unstampedBlock(block: ThinkingBlock, origin: RecordedOrigin): ThinkingBlock {
  const { provider, model, ...wire } = block;
  checkStamp('thinking block', provider, model, origin);
  return wire;
}

function unstampedCall(call: ToolCall, origin: RecordedOrigin): ToolCall {
  const { signatureProvider, signatureModel, ...wire } = call;
  if (signatureProvider !== undefined || signatureModel !== undefined)
    checkStamp(`call ${call.id}`, signatureProvider, signatureModel, origin);
  return wire;
}

function checkStamp(
  what: string,
  provider: string | undefined,
  model: string | undefined,
  origin: RecordedOrigin,
): void {
  if (provider !== origin.provider)
    throw new Error(
      `recorded view: ${what} stamped by ${String(provider)}, not ${origin.provider}`,
    );
  if (origin.model !== undefined && model !== origin.model)
    throw new Error(
      `recorded view: ${what} stamped with model ${String(model)}, not ${origin.model}`,
    );
}
