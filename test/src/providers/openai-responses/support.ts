/**
 * Helpers of the OpenAI Responses adapter tests: our own fixtures (written from the documented
 * wire format), replies for the loopback replay server, and a delta collector.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Delta, ModelRequest } from 'golem';
import { openaiResponses, type OpenAIResponsesOptions } from 'golem/providers/openai-responses';
import type { Reply, ReplayServer } from '../../../support/replay-server';

/** The API key every test model uses (and that must never appear in an error). */
export const KEY = 'sk-responses-own-test';

/** The bytes of test/src/providers/openai-responses/fixtures/<file>. */
export function fixture(file: string): Buffer {
  return readFileSync(join(__dirname, 'fixtures', file));
}

/** A JSON reply with a fixture body. */
export function jsonReply(file: string, status = 200): Reply {
  return { status, headers: { 'content-type': 'application/json' }, body: fixture(file) };
}

/** An event-stream reply with a fixture body. */
export function sseReply(file: string): Reply {
  return { headers: { 'content-type': 'text/event-stream; charset=utf-8' }, body: fixture(file) };
}

/** A model pointed at `server`. */
export function modelFor(server: ReplayServer, options: Partial<OpenAIResponsesOptions> = {}) {
  return openaiResponses({ model: 'gpt-own', apiKey: KEY, baseURL: server.url, ...options });
}

/** A one-message request. */
export function ask(text: string, more: Partial<ModelRequest> = {}): ModelRequest {
  return { messages: [{ role: 'user', content: text }], tools: [], ...more };
}

/** Collects deltas. */
export function collector(): { deltas: Delta[]; onDelta: (d: Delta) => void } {
  const deltas: Delta[] = [];
  return { deltas, onDelta: (d) => void deltas.push(d) };
}

/** The JSON body of the server's request `i`. */
export function sent(server: ReplayServer, i = 0): Record<string, unknown> {
  return server.requests[i]?.json as Record<string, unknown>;
}
