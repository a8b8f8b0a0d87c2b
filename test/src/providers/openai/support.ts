/**
 * Helpers shared by the OpenAI-compatible and Azure adapter tests: the recorded fixtures (read
 * from /work/shared at test time, never copied into the repo), SSE framing, and an in-memory
 * `fetch` that delivers a body in chosen byte chunks.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Delta, ModelResponse, ToolCall } from 'golem';

/** Root of the shared provider fixtures, beside the checkout (CI has the same layout). */
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
);

/** The raw bytes of a fixture file. */
export function fixtureBytes(dir: string, file: string): Buffer {
  return readFileSync(join(FIXTURES, dir, file));
}

/** A fixture file parsed as JSON. */
export function fixtureJson(dir: string, file: string): unknown {
  return JSON.parse(fixtureBytes(dir, file).toString('utf8')) as unknown;
}

/** The `expected` block of a `*.expected.json`. */
export interface ExpectedSuccess {
  model: string;
  text: string;
  reasoning: { type: string; text: string }[];
  tool_calls: { id: string; name: string; args_raw: string }[];
  usage: { input_tokens: number; output_tokens: number };
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

/** The normalised response a success fixture must produce. */
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
      outputTokens: expected.usage.output_tokens,
    },
    finishReason: expected.finish_reason,
    modelName: expected.model,
  };
}

/** A vercel `*.chunks.txt` (one data payload per line) framed as SSE, with `data: [DONE]`. */
export function chunksToSse(text: string, done = true): string {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  return lines.map((line) => `data: ${line}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '');
}

/** SSE text of the given JSON chunks, then `data: [DONE]` unless `done` is false. */
export function sse(chunks: readonly unknown[], done = true): string {
  return (
    chunks.map((c) => `data: ${JSON.stringify(c)}\n\n`).join('') + (done ? 'data: [DONE]\n\n' : '')
  );
}

/** A chat.completion.chunk with one choice delta. */
export function chunk(delta: Record<string, unknown>, finish: string | null = null): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    model: 'test-model',
    choices: [{ index: 0, delta, finish_reason: finish }],
  };
}

/** The final usage-only chunk. */
export function usageChunk(prompt: number, completion: number): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion.chunk',
    model: 'test-model',
    choices: [],
    usage: {
      prompt_tokens: prompt,
      completion_tokens: completion,
      total_tokens: prompt + completion,
    },
  };
}

/** A chat.completion body with one choice. */
export function completion(
  message: Record<string, unknown>,
  finish = 'stop',
  usage = { prompt_tokens: 5, completion_tokens: 7 },
): unknown {
  return {
    id: 'chatcmpl-test',
    object: 'chat.completion',
    model: 'test-model',
    choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finish }],
    usage,
  };
}

/** A `fetch` that answers every call with `body` delivered in exactly these byte chunks. */
export function chunkedFetch(
  parts: readonly Uint8Array[],
  init: ResponseInit = { status: 200, headers: { 'content-type': 'text/event-stream' } },
): (input: string, request: RequestInit) => Promise<Response> {
  return () => {
    let i = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const part = parts[i++];
        if (part === undefined) controller.close();
        else controller.enqueue(part);
      },
    });
    return Promise.resolve(new Response(body, init));
  };
}

/** `bytes` split at the given offsets (sorted, deduplicated, in range). */
export function splitAt(bytes: Uint8Array, offsets: readonly number[]): Uint8Array[] {
  const cuts = [...new Set(offsets.filter((o) => o > 0 && o < bytes.length))].sort((a, b) => a - b);
  const parts: Uint8Array[] = [];
  let start = 0;
  for (const cut of [...cuts, bytes.length]) {
    parts.push(bytes.slice(start, cut));
    start = cut;
  }
  return parts;
}

/** Collects deltas and summarises them the way a UI would render them. */
export function collector(): { deltas: Delta[]; onDelta: (d: Delta) => void; text: () => string } {
  const deltas: Delta[] = [];
  return {
    deltas,
    onDelta: (d) => {
      deltas.push(d);
    },
    text: () => deltas.map((d) => d.content ?? '').join(''),
  };
}

/** A copy of `value` without the given top-level keys. */
export function omit(value: unknown, ...keys: string[]): Record<string, unknown> {
  const copy = { ...(value as Record<string, unknown>) };
  for (const key of keys) Reflect.deleteProperty(copy, key);
  return copy;
}
