/** Shared helpers of the Gemini adapter tests (not a test file itself). */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelRequest, ModelResponse } from 'golem';
import { gemini, type GeminiModel, type GeminiOptions } from 'golem/providers/gemini';
import type { ReplayServer } from '../../../support/replay-server';

/** The recorded wire fixtures, read from ../shared beside the checkout (never copied here). */
export const SHARED_FIXTURES = join(
  __dirname,
  '..',
  '..',
  '..',
  '..',
  '..',
  'shared',
  'fixtures',
  'providers',
  'google',
);

/** Our own fixtures, written from the documented wire format. */
export const OWN_FIXTURES = join(__dirname, 'fixtures');

/** A test API key; long enough to be redacted by the shared HTTP helper. */
export const API_KEY = 'test-gemini-key-0123456789';

export function sharedText(file: string): string {
  return readFileSync(join(SHARED_FIXTURES, file), 'utf8');
}

// The type argument only names what the caller expects of the fixture (a cast, as with JSON.parse).
// eslint-disable-next-line @typescript-eslint/no-unnecessary-type-parameters
export function sharedJson<T = unknown>(file: string): T {
  return JSON.parse(sharedText(file)) as T;
}

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
