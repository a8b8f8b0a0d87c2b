/**
 * Helpers of the Anthropic adapter tests: the recorded fixtures (read from ../shared at test
 * time, never copied), replies for the loopback replay server, and the expected normalised
 * response derived from a fixture's `*.expected.json`.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Delta, ModelResponse, ThinkingBlock, ToolCall } from 'golem';
import { anthropic, type AnthropicModel, type AnthropicOptions } from 'golem/providers/anthropic';
import type { Reply, ReplayServer } from '../../../support/replay-server';

/** The recorded Anthropic fixtures, beside the checkout as in CI. */
export const FIXTURES = join(
  __dirname,
  '..',
  '..',
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'providers',
  'anthropic',
);

/** Own fixtures written from the documented wire format. */
export const OWN_FIXTURES = join(__dirname, 'fixtures');

/** A fake key; tests assert it never leaks into errors. */
export const API_KEY = 'sk-ant-test-0123456789abcdef';

/** Text of a shared fixture file. */
export function fixtureText(file: string): string {
  return readFileSync(join(FIXTURES, file), 'utf8');
}

/** Parsed JSON of a shared fixture file. */
export function fixtureJson(file: string): unknown {
  return JSON.parse(fixtureText(file)) as unknown;
}

/** Text of one of our own fixtures. */
export function ownFixture(file: string): string {
  return readFileSync(join(OWN_FIXTURES, file), 'utf8');
}

/** A JSON reply. */
export function jsonReply(body: string, status = 200, headers: Record<string, string> = {}): Reply {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body };
}

/** An SSE reply, whole or as the given chunks. */
export function sseReply(body: string | readonly (string | Uint8Array)[]): Reply {
  const headers = { 'content-type': 'text/event-stream; charset=utf-8' };
  return typeof body === 'string' ? { headers, body } : { headers, chunks: body };
}

/** A `*.chunks.txt` fixture (one data payload per line) as SSE frames. */
export function chunksToSse(text: string): string {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => `data: ${line}\n\n`)
    .join('');
}

/** SSE text of payloads, each as `event: <type>` + `data:` frame. */
export function sse(...payloads: readonly Record<string, unknown>[]): string {
  return payloads.map((p) => `event: ${String(p.type)}\ndata: ${JSON.stringify(p)}\n\n`).join('');
}

/** The adapter pointed at a replay server. */
export function modelFor(
  server: ReplayServer,
  options: Partial<AnthropicOptions> = {},
): AnthropicModel {
  return anthropic({ model: 'claude-test', apiKey: API_KEY, baseURL: server.url, ...options });
}

/** Collects deltas and offers their concatenations. */
export class DeltaLog {
  readonly deltas: Delta[] = [];
  readonly handler = (delta: Delta): void => {
    this.deltas.push(delta);
  };

  get text(): string {
    return this.deltas.map((d) => d.content ?? '').join('');
  }

  /** Tool calls rebuilt from fragments: id/name from the first, args concatenated. */
  get toolCalls(): { index: number; id?: string; name?: string; args: string }[] {
    const calls = new Map<number, { index: number; id?: string; name?: string; args: string }>();
    for (const fragment of this.deltas.flatMap((d) => d.toolCalls ?? [])) {
      const call = calls.get(fragment.index) ?? { index: fragment.index, args: '' };
      if (fragment.id !== undefined) call.id = fragment.id;
      if (fragment.name !== undefined) call.name = fragment.name;
      call.args += fragment.argsFragment ?? '';
      calls.set(fragment.index, call);
    }
    return [...calls.values()];
  }

  /** Thinking rebuilt from fragments, by index. */
  get thinking(): { index: number; text: string; signature: string }[] {
    const blocks = new Map<number, { index: number; text: string; signature: string }>();
    for (const fragment of this.deltas.flatMap((d) => d.thinking ?? [])) {
      const block = blocks.get(fragment.index) ?? {
        index: fragment.index,
        text: '',
        signature: '',
      };
      block.text += fragment.text ?? '';
      block.signature += fragment.signature ?? '';
      blocks.set(fragment.index, block);
    }
    return [...blocks.values()];
  }
}

interface ExpectedFixture {
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
 * reads and writes), the unified finish reason and the model name.
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
    },
    finishReason: UNIFIED[e.finish_reason_unified_suggestion] ?? e.finish_reason,
    modelName: e.model,
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
    type: 'message',
    role: 'assistant',
    model: e.model,
    content,
    stop_reason: e.finish_reason,
    usage: e.usage,
  });
}
