/**
 * Adversarial streams (adversarial-cases.md 1–4) through the Azure adapter, on Azure's recorded
 * stream shape (a choice-less first chunk with prompt_filter_results, content_filter_results on
 * every choice).
 */
import { userMessage } from '../../../../src/core/contract/message';
import type { ModelRequest, ModelResponse } from 'golem';
import { azure, type AzureOptions } from 'golem/providers/azure';
import { startReplayServer } from '../../../support/replay-server';
import { chunk, chunkedFetch, collector, sse, splitAt } from '../openai/support';

import {
  ModelProtocolError,
  SseLineTooLongError,
  StreamInterruptedError,
} from '../../../support/internal-errors';
const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };
const encoder = new TextEncoder();

function model(options: Partial<AzureOptions>) {
  return azure({
    endpoint: 'https://contoso.openai.azure.com',
    deployment: 'gpt-5-mini',
    apiVersion: 'v1',
    apiKey: 'key-123456',
    ...options,
  });
}

async function run(parts: Uint8Array[]): Promise<{ response: ModelResponse; text: string }> {
  const c = collector();
  const response = await model({ fetch: chunkedFetch(parts) }).stream(hi, c.onDelta);
  return { response, text: c.text() };
}

async function failure(parts: Uint8Array[], options: Partial<AzureOptions> = {}): Promise<unknown> {
  return model({ fetch: chunkedFetch(parts), ...options })
    .stream(hi, () => undefined)
    .then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => error,
    );
}

const filterChunk = {
  choices: [],
  created: 0,
  id: '',
  model: '',
  object: '',
  prompt_filter_results: [],
};
const TEXT = ['Ünïcödé ', '日本語のテキスト', ' 🧑🏾‍🚀', ' مرحبا'];
const azureStream = encoder.encode(
  sse([filterChunk, ...TEXT.map((t) => chunk({ content: t })), chunk({}, 'stop')]),
);

test('ADV-1 every single byte split of an Azure stream gives the identical response, no U+FFFD', async () => {
  const whole = await run([azureStream]);
  expect(whole.response.message.content).toBe(TEXT.join(''));
  for (let offset = 1; offset < azureStream.length; offset++) {
    const split = await run(splitAt(azureStream, [offset]));
    expect(split).toEqual(whole);
    expect(split.text).not.toContain('\uFFFD');
  }
});

test('ADV-2 CRLF, CR and LF line endings in one stream', async () => {
  const a = JSON.stringify(chunk({ content: 'one' }));
  const b = JSON.stringify(chunk({ content: ' two' }, 'stop'));
  const text = `data: ${JSON.stringify(filterChunk)}\r\n\r\ndata: ${a}\r\rdata: ${b}\n\ndata: [DONE]\r\n\r\n`;
  const { response } = await run([encoder.encode(text)]);
  expect(response.message.content).toBe('one two');
});

test('ADV-3 a reset mid-stream is a retryable StreamInterruptedError', async () => {
  const server = await startReplayServer([
    {
      headers: { 'content-type': 'text/event-stream' },
      chunks: [sse([filterChunk, chunk({ content: 'par' })], false), 'data: {"cho'],
      reset: true,
    },
  ]);
  try {
    const error: unknown = await model({ endpoint: server.url })
      .stream(hi, () => undefined)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      kind: 'StreamInterruptedError',
      retryable: true,
      provider: 'azure',
    });
  } finally {
    await server.close();
  }
});

test('ADV-3 EOF without [DONE] and a malformed frame are typed errors', async () => {
  const eof = await failure([encoder.encode(sse([chunk({ content: 'x' }, 'stop')], false))]);
  const malformed = await failure([encoder.encode('data: {not json}\n\n')]);
  expect(StreamInterruptedError.is(eof)).toBe(true);
  expect(ModelProtocolError.is(malformed)).toBe(true);
});

test('ADV-4 an oversized line fails with SseLineTooLongError, in one chunk or byte by byte', async () => {
  const huge = encoder.encode(`data: ${'x'.repeat(5000)}\n\n`);
  const once = await failure([huge], { maxLineBytes: 1000 });
  const bytewise = await failure(
    Array.from(huge, (b) => Uint8Array.of(b)),
    { maxLineBytes: 1000 },
  );
  expect([SseLineTooLongError.is(once), SseLineTooLongError.is(bytewise)]).toEqual([true, true]);
});
