/**
 * The recorded Anthropic fixtures (../shared, never copied into the repository), and the
 * normalised response each `*.expected.json` describes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelResponse, ThinkingBlock, ToolCall } from 'golem';
import { recordedDir } from '../../fixtures-root';
import { expectedDetails, expectedId } from '../../recorded-view';

/** The recorded Anthropic fixtures, beside the checkout as in CI. */
export const FIXTURES = recordedDir('anthropic');

/** Text of a recorded fixture file. */
export function fixtureText(file: string): string {
  return readFileSync(join(FIXTURES, file), 'utf8');
}

/** Parsed JSON of a recorded fixture file. */
export function fixtureJson(file: string): unknown {
  return JSON.parse(fixtureText(file)) as unknown;
}

/** A `*.chunks.txt` fixture (one data payload per line) as SSE frames. */
export function chunksToSse(text: string): string {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `data: ${line}\n\n`)
    .join('');
}

interface ExpectedFixture {
  /** The recorded message id (`msg_…`). */
  id: string;
  model: string;
  text: string;
  reasoning: { type: string; text?: string; signature?: string; data?: string }[];
  tool_calls: { id: string; name: string; args: unknown; args_raw_unparseable?: string }[];
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens: number;
    cache_creation_input_tokens: number;
  };
  finish_reason: string;
  finish_reason_unified_suggestion: string;
}

/** The `expected` section of `<name>.expected.json`. */
export function expectedOf(name: string): ExpectedFixture {
  return (fixtureJson(`${name}.expected.json`) as { expected: ExpectedFixture }).expected;
}

const UNIFIED: Record<string, string> = {
  stop: 'stop',
  length: 'length',
  'tool-calls': 'tool_calls',
  'content-filter': 'content_filter',
};

/**
 * The normalised response a fixture must produce: text, calls (args = the JSON text of the
 * parsed args, or the raw text when unparseable), thinking blocks, usage (input includes cache
 * reads and writes; the cache counts on their own), the unified finish reason, the model name and
 * the recorded message id — the recorded view of ../../recorded-view.ts.
 */
export function expectedResponse(name: string): ModelResponse {
  const e = expectedOf(name);
  const message: ModelResponse['message'] = { role: 'assistant' };
  if (e.text !== '') message.content = e.text;
  const calls: ToolCall[] = e.tool_calls.map((c) => ({
    id: c.id,
    name: c.name,
    args: c.args === null ? (c.args_raw_unparseable ?? '') : JSON.stringify(c.args),
  }));
  if (calls.length > 0) message.toolCalls = calls;
  const thinking: ThinkingBlock[] = e.reasoning.map((r) =>
    r.type === 'redacted_thinking'
      ? { redacted: r.data ?? '' }
      : { text: r.text ?? '', signature: r.signature ?? '' },
  );
  if (thinking.length > 0) message.thinking = thinking;
  return {
    message,
    usage: {
      inputTokens:
        e.usage.input_tokens +
        e.usage.cache_read_input_tokens +
        e.usage.cache_creation_input_tokens,
      outputTokens: e.usage.output_tokens,
      ...expectedDetails(e.usage),
    },
    finishReason: UNIFIED[e.finish_reason_unified_suggestion] ?? e.finish_reason,
    modelName: e.model,
    ...expectedId(e.id),
  };
}

/** A non-streamed message body carrying the same content as an expected fixture. */
export function messageBodyOf(name: string): string {
  const e = expectedOf(name);
  const content: unknown[] = e.reasoning.map((r) =>
    r.type === 'redacted_thinking'
      ? { type: 'redacted_thinking', data: r.data }
      : { type: 'thinking', thinking: r.text, signature: r.signature },
  );
  if (e.text !== '') content.push({ type: 'text', text: e.text });
  for (const c of e.tool_calls)
    content.push({ type: 'tool_use', id: c.id, name: c.name, input: c.args });
  return JSON.stringify({
    id: e.id,
    type: 'message',
    role: 'assistant',
    model: e.model,
    content,
    stop_reason: e.finish_reason,
    usage: e.usage,
  });
}
