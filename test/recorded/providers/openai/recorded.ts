/**
 * The recorded OpenAI / OpenAI-compatible and Azure fixtures (../shared, never copied into the
 * repository) and the normalised response each `*.expected.json` describes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelResponse, ToolCall } from 'golem';
import { RECORDED_PROVIDERS } from '../../fixtures-root';
import { expectedDetails, expectedId } from '../../recorded-view';

/** The raw bytes of a fixture file. */
export function fixtureBytes(dir: string, file: string): Buffer {
  return readFileSync(join(RECORDED_PROVIDERS, dir, file));
}

/** A fixture file parsed as JSON. */
export function fixtureJson(dir: string, file: string): unknown {
  return JSON.parse(fixtureBytes(dir, file).toString('utf8')) as unknown;
}

/** The `expected` block of a `*.expected.json`. */
export interface ExpectedSuccess {
  /** The recorded response `id` (`chatcmpl-…`, DeepSeek/xAI UUIDs). */
  id: string | null;
  model: string;
  text: string;
  reasoning: { type: string; text: string }[];
  tool_calls: { id: string; name: string; args_raw: string }[];
  usage: {
    input_tokens: number;
    output_tokens: number;
    reasoning_tokens: number | null;
    cached_input_tokens: number | null;
    total_tokens?: number;
  };
  finish_reason: string;
}

/** The `expected.error` block of an error fixture. */
export interface ExpectedError {
  http_status: number;
  body: { error: { code?: string | number; type?: string; message: string } };
}

/** The expected block of `<name>.expected.json`. */
export function expectedOf(dir: string, name: string): ExpectedSuccess & { error?: ExpectedError } {
  const file = fixtureJson(dir, `${name}.expected.json`) as { expected: ExpectedSuccess };
  return file.expected;
}

/**
 * The normalised response a success fixture must produce, in the recorded view (see
 * ../../recorded-view.ts): with the recorded response id and the cache/reasoning counts.
 */
export function expectedResponse(expected: ExpectedSuccess): ModelResponse {
  const message: ModelResponse['message'] = { role: 'assistant' };
  if (expected.text !== '') message.content = expected.text;
  const calls: ToolCall[] = expected.tool_calls.map((c) => ({
    id: c.id,
    name: c.name,
    args: c.args_raw,
  }));
  if (calls.length > 0) message.toolCalls = calls;
  if (expected.reasoning.length > 0)
    message.thinking = expected.reasoning.map((r) => ({ text: r.text }));
  return {
    message,
    usage: {
      inputTokens: expected.usage.input_tokens,
      outputTokens: expectedOutput(expected.usage),
      ...expectedDetails(expected.usage),
    },
    finishReason: expected.finish_reason,
    modelName: expected.model,
    ...expectedId(expected.id),
  };
}

/**
 * Output tokens as `Usage` counts them: reasoning included. A recording whose total is input +
 * output + reasoning (xAI) counted reasoning apart, so it is added back.
 */
function expectedOutput(usage: ExpectedSuccess['usage']): number {
  const { input_tokens: input, output_tokens: output, reasoning_tokens: reasoning } = usage;
  if (reasoning !== null && reasoning > 0 && usage.total_tokens === input + output + reasoning)
    return output + reasoning;
  return output;
}

/** A vercel `*.chunks.txt` (one data payload per line) framed as SSE, with `data: [DONE]`. */
export function chunksToSse(text: string, done = true): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.map((line) => `data: ${line}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
}
