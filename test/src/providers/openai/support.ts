/**
 * Helpers shared by the OpenAI-compatible and Azure adapter tests: SSE framing, wire bodies, and
 * an in-memory `fetch` that delivers a body in chosen byte chunks. (The recorded third-party
 * fixtures are read only by test/recorded.)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Delta } from 'golem';

/**
 * One of our own fixtures (written from the documented wire format) of `provider`:
 * test/src/providers/<provider>/fixtures/<file>.
 */
export function ownFixture(provider: 'openai' | 'azure', file: string): Buffer {
  return readFileSync(join(__dirname, '..', provider, 'fixtures', file));
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
