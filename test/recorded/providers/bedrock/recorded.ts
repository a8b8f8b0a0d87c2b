/**
 * The recorded Bedrock fixtures (../shared, never copied into the repository) and the
 * normalised response each `*.expected.json` describes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ModelResponse } from 'golem';
import { recordedDir } from '../../fixtures-root';
import { expectedDetails } from '../../recorded-view';

/** The recorded Bedrock fixture folder, beside the checkout. */
export const FIXTURES = recordedDir('bedrock');

/** Raw bytes of a fixture file. */
export function fixtureBytes(name: string): Buffer {
  return readFileSync(join(FIXTURES, name));
}

/** A fixture file parsed as JSON. */
export function fixtureJson(name: string): unknown {
  return JSON.parse(fixtureBytes(name).toString('utf8'));
}

/** The `expected` section of `<base>.expected.json`. */
export interface Expected {
  model: string;
  text: string;
  reasoning: { type: string; text?: string; signature?: string }[];
  tool_calls: { id: string; name: string; args: unknown }[];
  usage: {
    input_tokens: number;
    output_tokens: number;
    cache_read_input_tokens: number | null;
    cache_write_input_tokens: number | null;
  };
  finish_reason: string;
  finish_reason_unified_suggestion: string;
}

export function expectedOf(base: string): Expected {
  return (fixtureJson(`${base}.expected.json`) as { expected: Expected }).expected;
}

/** The URL path and content type the fixture was recorded with. */
export function recordedHttp(base: string): { path: string; status: number; contentType: string } {
  const http = (
    fixtureJson(`${base}.expected.json`) as {
      http: { url: string; status: number; content_type: string };
    }
  ).http;
  return { path: new URL(http.url).pathname, status: http.status, contentType: http.content_type };
}

const UNIFIED: Record<string, string> = {
  stop: 'stop',
  'tool-calls': 'tool_calls',
  length: 'length',
  'content-filter': 'content_filter',
};

/**
 * The exact normalised golem response the expected.json describes, in the recorded view (see
 * ../../recorded-view.ts: provenance checked there, not stated here). Converse responses carry no
 * id, so there is no `responseId`.
 */
export function expectedResponse(base: string): ModelResponse {
  const e = expectedOf(base);
  const message: ModelResponse['message'] = { role: 'assistant' };
  if (e.text !== '') message.content = e.text;
  if (e.tool_calls.length > 0)
    message.toolCalls = e.tool_calls.map((c) => ({
      id: c.id,
      name: c.name,
      args: JSON.stringify(c.args),
    }));
  if (e.reasoning.length > 0)
    message.thinking = e.reasoning.map((r) =>
      r.signature === undefined
        ? { text: r.text ?? '' }
        : { text: r.text ?? '', signature: r.signature },
    );
  return {
    message,
    usage: {
      // Converse's inputTokens excludes cache reads and writes; ours counts every input token.
      inputTokens:
        e.usage.input_tokens +
        (e.usage.cache_read_input_tokens ?? 0) +
        (e.usage.cache_write_input_tokens ?? 0),
      outputTokens: e.usage.output_tokens,
      ...expectedDetails(e.usage),
    },
    finishReason: UNIFIED[e.finish_reason_unified_suggestion] ?? e.finish_reason,
    modelName: e.model,
  };
}
