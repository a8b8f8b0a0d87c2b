/**
 * Shared by the record/replay tests: the fetch-based adapters built against a base URL and a
 * `fetch`, our own provider fixtures (test/src/providers/<provider>/fixtures, written from the
 * documented wire formats) as loopback-server replies, and a call that collects what a model
 * returns (and streams).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Delta, FetchLike, ModelRequest, ModelResponse, StreamingModel } from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { azure } from 'golem/providers/azure';
import { gemini } from 'golem/providers/gemini';
import { openai } from 'golem/providers/openai';
import type { Reply } from '../../support/replay-server';

/** The key every adapter is built with; it must never reach a fixture. */
export const KEY = 'sk-golem-record-replay-0123456789abcdef';

/** A fetch-based adapter under test. */
export interface AdapterCase {
  provider: 'openai' | 'azure' | 'anthropic' | 'gemini';
  /** The adapter pointed at `baseURL`, sending through `fetch`. */
  build(baseURL: string, fetch: FetchLike, apiKey?: string): StreamingModel;
  /** Fixture files (in the provider's fixtures folder) for generate and stream. */
  json: string;
  sse: string;
}

export const ADAPTERS: readonly AdapterCase[] = [
  {
    provider: 'openai',
    build: (baseURL, fetch, apiKey = KEY) =>
      openai({ model: 'gpt-4o-mini', apiKey, baseURL, fetch }),
    json: 'completion-text.json',
    sse: 'parallel-tools.stream.sse',
  },
  {
    provider: 'azure',
    build: (endpoint, fetch, apiKey = KEY) =>
      azure({ endpoint, deployment: 'gpt-4o-mini', apiVersion: '2024-10-21', apiKey, fetch }),
    json: 'completion-text.json',
    sse: 'text.stream.sse',
  },
  {
    provider: 'anthropic',
    build: (baseURL, fetch, apiKey = KEY) =>
      anthropic({ model: 'claude-sonnet-4-5', apiKey, baseURL, fetch }),
    json: 'message-text.json',
    sse: 'thinking.stream.sse',
  },
  {
    provider: 'gemini',
    build: (baseURL, fetch, apiKey = KEY) =>
      gemini({ model: 'gemini-2.5-flash', apiKey, baseURL, fetch }),
    json: 'tool-call.json',
    sse: 'text.stream.sse',
  },
];

/** One of our own provider fixtures as a loopback reply (SSE split into one write per event). */
export function providerReply(provider: AdapterCase['provider'], file: string): Reply {
  const text = readFileSync(join(__dirname, '..', 'providers', provider, 'fixtures', file), 'utf8');
  if (file.endsWith('.json'))
    return { status: 200, headers: { 'content-type': 'application/json' }, body: text };
  const events = text.split(/(?<=\n\n)/);
  return { status: 200, headers: { 'content-type': 'text/event-stream' }, chunks: events };
}

export const request: ModelRequest = {
  messages: [{ role: 'user', content: 'What is the weather in Lagos?' }],
  tools: [
    {
      name: 'get_weather',
      description: 'Current weather of a city.',
      schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    },
  ],
};

/** What one call returned: the response, and the fragments when it streamed. */
export interface Outcome {
  response: ModelResponse;
  deltas: Delta[];
}

/** Calls `model` in `mode` with {@link request}. */
export async function call(model: StreamingModel, mode: 'generate' | 'stream'): Promise<Outcome> {
  const deltas: Delta[] = [];
  const response =
    mode === 'generate'
      ? await model.generate(request)
      : await model.stream(request, (delta) => {
          deltas.push(delta);
        });
  return { response, deltas };
}

/** A fresh temporary folder for fixture files. */
export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'golem-fixtures-'));
}
