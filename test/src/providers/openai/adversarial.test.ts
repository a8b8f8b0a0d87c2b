/**
 * Adversarial streams (adversarial-cases.md 1–4) through the OpenAI-compatible adapter: byte
 * splits, line endings, truncation and malformed frames, oversized lines.
 */
import fc from 'fast-check';
import { userMessage } from '../../../../src/core/contract/message';
import type { ModelRequest, ModelResponse } from 'golem';
import { openai, type OpenAIOptions } from 'golem/providers/openai';
import { startReplayServer } from '../../../support/replay-server';
import { chunk, chunkedFetch, collector, sse, splitAt, usageChunk } from './support';

import {
  ModelProtocolError,
  SseLineTooLongError,
  StreamInterruptedError,
} from '../../../support/internal-errors';
const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };
const encoder = new TextEncoder();

function model(options: Partial<OpenAIOptions>) {
  return openai({ model: 'm', preset: 'openai', apiKey: 'sk-test', ...options });
}

/** Streams `parts` through the adapter; returns the response and the concatenated text deltas. */
async function run(parts: Uint8Array[]): Promise<{ response: ModelResponse; text: string }> {
  const c = collector();
  const response = await model({ fetch: chunkedFetch(parts) }).stream(hi, c.onDelta);
  return { response, text: c.text() };
}

async function failure(
  parts: Uint8Array[],
  options: Partial<OpenAIOptions> = {},
): Promise<unknown> {
  return model({ fetch: chunkedFetch(parts), ...options })
    .stream(hi, () => undefined)
    .then(
      () => {
        throw new Error('expected a failure');
      },
      (error: unknown) => error,
    );
}

const MIXED = ['שלום עולם', ' 你好，世界', ' 👩‍👩‍👧‍👦', ' 🏳️‍🌈 café', ' ١٢٣'];
const mixedStream = encoder.encode(
  sse([...MIXED.map((text) => chunk({ content: text })), chunk({}, 'stop'), usageChunk(3, 5)]),
);

describe('ADV-1 UTF-8 split at every byte offset', () => {
  let whole: { response: ModelResponse; text: string };
  beforeAll(async () => {
    whole = await run([mixedStream]);
  });

  test('the unsplit stream decodes to the exact text', () => {
    expect(whole.response.message.content).toBe(MIXED.join(''));
    expect(whole.text).toBe(MIXED.join(''));
  });

  test('exhaustive: every single split point gives the identical response, no U+FFFD', async () => {
    for (let offset = 1; offset < mixedStream.length; offset++) {
      const split = await run(splitAt(mixedStream, [offset]));
      expect(split).toEqual(whole);
      expect(split.text).not.toContain('\uFFFD');
    }
  });

  test('fast-check: arbitrary split points, down to 1-byte chunks', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: mixedStream.length - 1 }), { maxLength: 40 }),
        async (offsets) => {
          expect(await run(splitAt(mixedStream, offsets))).toEqual(whole);
        },
      ),
      { numRuns: 150 },
    );
    const bytewise = Array.from(mixedStream, (b) => Uint8Array.of(b));
    expect(await run(bytewise)).toEqual(whole);
  });
});

describe('ADV-2 CR / LF / CRLF boundaries', () => {
  const [a, b, c] = [
    '{"choices":[{"index":0,',
    '"delta":{"content":"ABC"},',
    '"finish_reason":"stop"}]}',
  ];

  test('data lines ended by CRLF, CR and LF across chunks form exactly one event', async () => {
    const parts = [
      `data: ${a}\r\n`,
      `data: ${b}\r`,
      '\n',
      `data: ${c}\r\n`,
      '\n',
      'data: [DONE]\r\n\r\n',
    ];
    const c1 = collector();
    const response = await model({
      fetch: chunkedFetch(parts.map((p) => encoder.encode(p))),
    }).stream(hi, c1.onDelta);
    expect(c1.deltas).toEqual([{ content: 'ABC' }]);
    expect(response.message.content).toBe('ABC');
  });

  test('mixed endings in one chunk and standalone CR line breaks', async () => {
    const first = JSON.stringify(chunk({ content: 'first' }));
    const second = JSON.stringify(chunk({ content: ' second' }, 'stop'));
    const text = `data: ${first}\r\n\r\ndata: ${second}\r\rdata: [DONE]\n\n`;
    const { response, text: streamed } = await run([encoder.encode(text)]);
    expect([response.message.content, streamed]).toEqual(['first second', 'first second']);
  });
});

describe('ADV-3 truncated and malformed streams', () => {
  test('a connection reset mid-event: StreamInterruptedError (retryable), text so far delivered', async () => {
    const server = await startReplayServer([
      {
        headers: { 'content-type': 'text/event-stream' },
        chunks: [sse([chunk({ content: 'partial' })], false), 'data: {"choices":[{"ind'],
        reset: true,
      },
    ]);
    try {
      const c = collector();
      const error: unknown = await model({ baseURL: server.url })
        .stream(hi, c.onDelta)
        .catch((e: unknown) => e);
      expect(StreamInterruptedError.is(error)).toBe(true);
      expect((error as StreamInterruptedError).retryable).toBe(true);
      expect(c.text()).toBe('partial');
    } finally {
      await server.close();
    }
  });

  test('EOF without data: [DONE] is a StreamInterruptedError, never a short success', async () => {
    const error = await failure([encoder.encode(sse([chunk({ content: 'x' }, 'stop')], false))]);
    expect(StreamInterruptedError.is(error)).toBe(true);
    expect((error as Error).message).toBe(
      'openai: stream interrupted: the stream ended before "data: [DONE]"',
    );
  });

  test('an unterminated [DONE] event (no blank line before EOF) is not dispatched', async () => {
    const text = sse([chunk({ content: 'x' }, 'stop')], false) + 'data: [DONE]';
    expect(StreamInterruptedError.is(await failure([encoder.encode(text)]))).toBe(true);
  });

  test('data: with invalid JSON is a ModelProtocolError, not a SyntaxError', async () => {
    const error = await failure([encoder.encode('data: {"choices": [\n\ndata: [DONE]\n\n')]);
    expect(ModelProtocolError.is(error)).toBe(true);
    expect(error).not.toBeInstanceOf(SyntaxError);
  });

  test('a leading BOM, comments, retry fields and unknown event types are ignored', async () => {
    const text =
      '\uFEFF: ping\n\nretry: 50x\n\nevent: keepalive\ndata: {}\n\n' +
      sse([chunk({ content: 'ok' }, 'stop')]);
    const { response } = await run([encoder.encode(text)]);
    expect(response.message.content).toBe('ok');
  });

  test('an error frame mid-stream with a numeric code is a ModelHTTPError with that status', async () => {
    const frame = { error: { code: 503, message: 'overloaded upstream' } };
    const error = await failure([encoder.encode(sse([chunk({ content: 'a' }), frame]))]);
    expect(error).toMatchObject({ kind: 'ModelHTTPError', status: 503, retryable: true });
  });

  test('an error frame with a transient type is a retryable StreamInterruptedError', async () => {
    const frame = { error: { message: 'The server had an error', type: 'server_error' } };
    const error = await failure([encoder.encode(sse([frame]))]);
    expect(StreamInterruptedError.is(error)).toBe(true);
    expect(error).toMatchObject({
      retryable: true,
      message:
        'openai: stream interrupted: the provider sent an error: The server had an error (server_error)',
    });
  });

  test('an event: error frame with a non-transient code is not retryable', async () => {
    const text =
      'event: error\ndata: {"error":{"message":"bad input","code":"invalid_prompt"}}\n\n';
    const error = await failure([encoder.encode(text)]);
    expect(error).toMatchObject({ kind: 'StreamInterruptedError', retryable: false });
  });
});

describe('ADV-4 oversized line', () => {
  const LIMIT = 1024;
  const huge = encoder.encode(
    `data: ${JSON.stringify(chunk({ content: 'x'.repeat(4 * LIMIT) }))}\n\n`,
  );

  test('delivered as one chunk: SseLineTooLongError and the body is cancelled', async () => {
    let cancelled = false;
    const fetch = () =>
      Promise.resolve(
        new Response(
          new ReadableStream<Uint8Array>({
            start(controller) {
              controller.enqueue(huge);
            },
            cancel() {
              cancelled = true;
            },
          }),
        ),
      );
    const error = await failure([], { fetch, maxLineBytes: LIMIT });
    expect(SseLineTooLongError.is(error)).toBe(true);
    expect(cancelled).toBe(true);
  });

  test('delivered byte by byte: the error comes right after the cap, not at the end', async () => {
    let pulled = 0;
    const fetch = () =>
      Promise.resolve(
        new Response(
          new ReadableStream<Uint8Array>({
            pull(controller) {
              const byte = huge[pulled++];
              if (byte === undefined) controller.close();
              else controller.enqueue(Uint8Array.of(byte));
            },
          }),
        ),
      );
    const error = await failure([], { fetch, maxLineBytes: LIMIT });
    expect(SseLineTooLongError.is(error)).toBe(true);
    expect(pulled).toBeLessThan(LIMIT + 16);
  });
});
