/**
 * Shared helpers of the Gemini adapter tests (not a test file itself). The recorded third-party
 * fixtures are read only by test/recorded.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelRequest, ModelResponse } from 'golem';
import { gemini, type GeminiModel, type GeminiOptions } from 'golem/providers/gemini';
import type { ReplayServer } from '../../../support/replay-server';

/** Our own fixtures, written from the documented wire format. */
export const OWN_FIXTURES = join(__dirname, 'fixtures');

/** A test API key; long enough to be redacted by the shared HTTP helper. */
export const API_KEY = 'test-gemini-key-0123456789';

/** Text of one of our own fixtures. */
export function ownText(file: string): string {
  return readFileSync(join(OWN_FIXTURES, file), 'utf8');
}

/** Wraps a vercel-style `*.chunks.txt` (one data payload per line) as an SSE body. */
export function sseFromLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => `data: ${line}\n\n`)
    .join('');
}

/** An SSE body from response objects, one `data:` frame each. */
export function sse(...chunks: unknown[]): string {
  return chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\r\n\r\n`).join('');
}

/** A Gemini adapter pointed at the replay server (`/v1beta` root). */
export function modelFor(server: ReplayServer, options: Partial<GeminiOptions> = {}): GeminiModel {
  return gemini({
    model: 'gemini-2.5-flash',
    apiKey: API_KEY,
    baseURL: `${server.url}/v1beta`,
    ...options,
  });
}

/** A request with just messages. */
export function request(messages: ModelRequest['messages'], more: Partial<ModelRequest> = {}) {
  return { messages, tools: [], ...more } satisfies ModelRequest;
}

/** The settled rejection of `promise` (fails the test when it resolves). */
export async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected the promise to reject');
}

/** A candidate chunk with the given parts. */
export function chunk(
  parts: unknown[],
  more: { finishReason?: string; usage?: Record<string, number>; model?: string } = {},
): Record<string, unknown> {
  const candidate: Record<string, unknown> = { content: { role: 'model', parts }, index: 0 };
  if (more.finishReason !== undefined) candidate.finishReason = more.finishReason;
  const body: Record<string, unknown> = {
    candidates: [candidate],
    modelVersion: more.model ?? 'gemini-2.5-flash',
    responseId: 'resp-1',
  };
  if (more.usage !== undefined) body.usageMetadata = more.usage;
  return body;
}

/** The JSON reply of a non-streaming call. */
export function jsonReply(body: unknown, status = 200) {
  return {
    status,
    headers: { 'content-type': 'application/json; charset=UTF-8' },
    body: JSON.stringify(body),
  };
}

/** An SSE reply. */
export function sseReply(body: string | readonly (string | Uint8Array)[], reset = false) {
  const chunks = typeof body === 'string' ? [body] : body;
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks, reset };
}

/** Tool calls with parsed args (for comparisons with fixtures). */
export function parsedCalls(response: ModelResponse) {
  return (response.message.toolCalls ?? []).map((call) => ({
    name: call.name,
    args: JSON.parse(call.args) as unknown,
  }));
}

/** The JSON payloads of an SSE body's `data:` lines, in order. */
export function frames(body: string): Record<string, unknown>[] {
  return body
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

/** All chunks of a stream collapsed into the single body `generateContent` would return. */
export function collapse(chunks: Record<string, unknown>[]): Record<string, unknown> {
  type Candidate = { content?: { parts?: unknown[] }; finishReason?: string };
  const parts = chunks.flatMap(
    (c) => (c.candidates as Candidate[] | undefined)?.[0]?.content?.parts ?? [],
  );
  const last = chunks.at(-1) ?? {};
  const finishReason = chunks
    .map((c) => (c.candidates as Candidate[] | undefined)?.[0]?.finishReason)
    .find((f) => f !== undefined);
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason }],
    usageMetadata: last.usageMetadata,
    modelVersion: last.modelVersion,
    responseId: last.responseId,
  };
}
