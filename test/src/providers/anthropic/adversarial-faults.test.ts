/**
 * Adversarial cases 3–4 (spec/adversarial-cases.md) against the Anthropic streaming adapter:
 * truncated and malformed streams, and an oversized line (small cap through an injected fetch
 * that counts reads; the specified 9 MiB / 8 MiB through the loopback server).
 */
import { isRetryable, ModelHTTPError, type Delta } from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { startReplayServer } from '../../../support/replay-server';
import { chunkedFetch, encoder, request, streamChunks, type BodyStats } from './chunked-fetch';
import { API_KEY, sse, sseReply } from './support';

import {
  ModelProtocolError,
  SseLineTooLongError,
  StreamInterruptedError,
} from '../../../support/internal-errors';
describe('ADV-3 truncated and malformed streams', () => {
  const head = sse(
    { type: 'message_start', message: { model: 'm' } },
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'kept' } },
  );
  const partial =
    'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":" lost"}}\n';

  test('ADV-3 a connection reset mid-event: the unterminated event is not dispatched; retryable StreamInterruptedError', async () => {
    const server = await startReplayServer([{ ...sseReply([head, partial]), reset: true }]);
    try {
      const deltas: Delta[] = [];
      const error = await anthropic({ model: 'm', apiKey: API_KEY, baseURL: server.url })
        .stream(request, (d) => void deltas.push(d))
        .catch((e: unknown) => e);
      expect([StreamInterruptedError.is(error), isRetryable(error)]).toEqual([true, true]);
      expect(deltas).toEqual([{ content: 'kept' }]);
    } finally {
      await server.close();
    }
  });

  test('ADV-3 EOF without the blank line: the last event is not dispatched; StreamInterruptedError', async () => {
    const deltas: Delta[] = [];
    const model = anthropic({
      model: 'm',
      apiKey: API_KEY,
      fetch: chunkedFetch([encoder.encode(head + partial)]),
    });
    const error = await model.stream(request, (d) => void deltas.push(d)).catch((e: unknown) => e);
    expect(StreamInterruptedError.is(error)).toBe(true);
    expect(deltas).toEqual([{ content: 'kept' }]);
  });

  test('ADV-3 data carrying invalid JSON: ModelProtocolError wrapping the SyntaxError', async () => {
    const model = anthropic({
      model: 'm',
      apiKey: API_KEY,
      fetch: chunkedFetch([
        encoder.encode(`${head}data: {"type": "content_block_delta", oops}\n\n`),
      ]),
    });
    const error = await model.stream(request, () => undefined).catch((e: unknown) => e);
    expect(ModelProtocolError.is(error)).toBe(true);
    expect(error).not.toBeInstanceOf(SyntaxError);
    expect((error as Error).cause).toBeInstanceOf(SyntaxError);
  });

  test('ADV-3 BOM, comments, retry fields, unknown events and ids are ignored', async () => {
    const text =
      '\uFEFF: ping\n\nretry: 50x\n\n' +
      head +
      'event: brand_new_event\ndata: {"type":"brand_new_event","n":1}\nid: 7\n\n' +
      ': keep-alive\n\n' +
      sse({ type: 'message_stop' });
    const { response, deltas } = await streamChunks([encoder.encode(text)]);
    expect([response.message.content, deltas]).toEqual(['kept', [{ content: 'kept' }]]);
  });

  test('ADV-3 a provider `event: error` frame: StreamInterruptedError{cause, retryable}', async () => {
    const text = `${head}event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n`;
    const model = anthropic({
      model: 'm',
      apiKey: API_KEY,
      fetch: chunkedFetch([encoder.encode(text)]),
    });
    const error = await model.stream(request, () => undefined).catch((e: unknown) => e);
    expect(StreamInterruptedError.is(error)).toBe(true);
    expect((error as StreamInterruptedError).retryable).toBe(true);
    expect(ModelHTTPError.is((error as Error).cause)).toBe(true);
  });
});

describe('ADV-4 oversized line', () => {
  const cap = 1024;
  const prefix = sse({ type: 'message_start', message: { model: 'm' } });
  const line = `data: {"type":"ping","pad":"${'x'.repeat(cap + 1024)}"}\n\n`;
  const bytes = encoder.encode(prefix + line);

  test('ADV-4 one chunk: SseLineTooLongError, the body is cancelled and the request aborted', async () => {
    const stats: BodyStats = { pulls: 0, cancelled: false };
    const error = await streamChunks([bytes], { maxLineBytes: cap, stats }).catch(
      (e: unknown) => e,
    );
    expect(SseLineTooLongError.is(error)).toBe(true);
    expect(isRetryable(error)).toBe(false);
    expect([stats.cancelled, stats.signal?.aborted]).toEqual([true, true]);
  });

  test('ADV-4 one byte per read: fails as soon as the cap is passed, never reading the rest', async () => {
    const stats: BodyStats = { pulls: 0, cancelled: false };
    const oneByte = Array.from(bytes, (b) => new Uint8Array([b]));
    const error = await streamChunks(oneByte, { maxLineBytes: cap, stats }).catch(
      (e: unknown) => e,
    );
    expect(SseLineTooLongError.is(error)).toBe(true);
    expect([stats.cancelled, stats.signal?.aborted]).toEqual([true, true]);
    const limit = encoder.encode(prefix).length + cap + 1;
    expect(stats.pulls).toBe(limit);
    expect(stats.pulls).toBeLessThan(bytes.length);
  });

  test('ADV-4 a 9 MiB line against the default 8 MiB cap, through the loopback server', async () => {
    const huge = `${prefix}data: {"type":"ping","pad":"${'y'.repeat(9 * 1024 * 1024)}"}\n\n`;
    const server = await startReplayServer([sseReply(huge)]);
    try {
      const error = await anthropic({ model: 'm', apiKey: API_KEY, baseURL: server.url })
        .stream(request, () => undefined)
        .catch((e: unknown) => e);
      expect(SseLineTooLongError.is(error)).toBe(true);
      expect((error as Error).message).toBe(
        'anthropic: a server-sent event line exceeded 8388608 bytes; the stream was cancelled',
      );
    } finally {
      await server.close();
    }
  }, 30_000);
});
