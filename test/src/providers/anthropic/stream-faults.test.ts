/**
 * Stream faults of the Anthropic adapter: resets, early EOF, malformed frames, provider error
 * events, handler errors and back-pressure, cancellation, and events that break the protocol.
 */
import { CancelledError, isRetryable, ModelHTTPError, type Delta, type ModelRequest } from 'golem';
import { anthropic } from 'golem/providers/anthropic';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { API_KEY, modelFor, ownFixture, sse, sseReply } from './support';
import { ModelProtocolError, StreamInterruptedError } from '../../../support/internal-errors';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

const start = { type: 'message_start', message: { model: 'm', usage: { input_tokens: 3 } } };
const textStart = {
  type: 'content_block_start',
  index: 0,
  content_block: { type: 'text', text: '' },
};
const text = (t: string): Record<string, unknown> => ({
  type: 'content_block_delta',
  index: 0,
  delta: { type: 'text_delta', text: t },
});
const stop = { type: 'message_stop' };

test('a connection reset mid-stream: retryable StreamInterruptedError after the text already streamed', async () => {
  server.push({ ...sseReply([sse(start, textStart, text('Hel'))]), reset: true });
  const deltas: Delta[] = [];
  const error = await failure(modelFor(server).stream(request, (d) => void deltas.push(d)));
  expect([StreamInterruptedError.is(error), isRetryable(error)]).toEqual([true, true]);
  expect(deltas).toEqual([{ content: 'Hel' }]);
});

test('EOF without message_stop: StreamInterruptedError "the stream ended before message_stop"', async () => {
  server.push(sseReply(sse(start, textStart, text('Hello'))));
  const error = await failure(modelFor(server).stream(request, () => undefined));
  expect(StreamInterruptedError.is(error)).toBe(true);
  expect((error as Error).message).toBe(
    'anthropic: stream interrupted: the stream ended before message_stop',
  );
});

test('a data frame with invalid JSON: ModelProtocolError (never a raw SyntaxError), not retryable', async () => {
  server.push(sseReply(`${sse(start)}data: {"type":"content_block_start",\n\n${sse(stop)}`));
  const error = await failure(modelFor(server).stream(request, () => undefined));
  expect(ModelProtocolError.is(error)).toBe(true);
  expect(isRetryable(error)).toBe(false);
  expect((error as Error).message).toBe(
    'anthropic: protocol error: stream: a data frame is not valid JSON: "{\\"type\\":\\"content_block_start\\","',
  );
  expect((error as Error).cause).toBeInstanceOf(SyntaxError);
});

test('an overloaded_error event: retryable StreamInterruptedError caused by a 529 ModelHTTPError', async () => {
  server.push(sseReply(ownFixture('error-overloaded.stream.sse')));
  const deltas: Delta[] = [];
  const error = await failure(modelFor(server).stream(request, (d) => void deltas.push(d)));
  expect(StreamInterruptedError.is(error)).toBe(true);
  expect((error as Error).message).toBe(
    'anthropic: stream interrupted: the provider sent an error event (overloaded_error): Overloaded',
  );
  expect(isRetryable(error)).toBe(true);
  const cause = (error as Error).cause;
  expect(ModelHTTPError.is(cause)).toBe(true);
  expect([(cause as ModelHTTPError).status, (cause as ModelHTTPError).code]).toEqual([
    529,
    'overloaded_error',
  ]);
  expect(deltas).toEqual([{ content: 'Partial answer' }]);
});

test('an invalid_request_error event: not retryable, cause status 400', async () => {
  server.push(sseReply(ownFixture('error-invalid-request.stream.sse')));
  const error = await failure(modelFor(server).stream(request, () => undefined));
  expect([StreamInterruptedError.is(error), isRetryable(error)]).toEqual([true, false]);
  expect(((error as Error).cause as ModelHTTPError).status).toBe(400);
});

test.each([
  ['rate_limit_error', 429, true],
  ['api_error', 500, true],
  ['timeout_error', 504, true],
  ['permission_error', 403, false],
  ['something_new', 500, false],
])('an error event of type %s → cause status %i, retryable %s', async (type, status, retryable) => {
  server.push(sseReply(sse(start, { type: 'error', error: { type, message: 'x' } })));
  const error = await failure(modelFor(server).stream(request, () => undefined));
  const cause = (error as Error).cause as ModelHTTPError;
  expect([cause.status, cause.retryable, isRetryable(error)]).toEqual([
    status,
    retryable,
    retryable,
  ]);
});

test('an onDelta error stops the stream, is rethrown as-is, and aborts the request', async () => {
  const thrown = new Error('handler failed');
  let signal: AbortSignal | undefined;
  const fetch = (url: string, init: RequestInit): Promise<Response> => {
    signal = init.signal ?? undefined;
    return globalThis.fetch(url, init);
  };
  server.push(sseReply(sse(start, textStart, text('a'), text('b'), stop)));
  const calls: Delta[] = [];
  const error = await failure(
    anthropic({ model: 'm', apiKey: API_KEY, baseURL: server.url, fetch }).stream(request, (d) => {
      calls.push(d);
      throw thrown;
    }),
  );
  expect(error).toBe(thrown);
  expect(calls).toEqual([{ content: 'a' }]);
  expect(signal?.aborted).toBe(true);
});

test('an async onDelta is awaited before the next fragment is delivered', async () => {
  server.push(sseReply(sse(start, textStart, text('1'), text('2'), text('3'), stop)));
  const seen: string[] = [];
  let release: () => void = () => undefined;
  let firstCall: () => void = () => undefined;
  const called = new Promise<void>((resolve) => (firstCall = resolve));
  const done = modelFor(server).stream(request, (d) => {
    seen.push(d.content ?? '');
    if (seen.length > 1) return undefined;
    firstCall();
    return new Promise<void>((resolve) => (release = resolve));
  });
  await called;
  for (let i = 0; i < 20; i++) await new Promise((resolve) => setImmediate(resolve));
  expect(seen).toEqual(['1']);
  release();
  const response = await done;
  expect([seen, response.message.content]).toEqual([['1', '2', '3'], '123']);
});

test('aborting the signal mid-stream rejects with the cancellation error', async () => {
  const controller = new AbortController();
  server.push(sseReply([sse(start, textStart, text('a')), sse(text('b'), stop)]));
  const error = await failure(
    modelFor(server).stream(
      request,
      () => {
        controller.abort(new Error('stop'));
      },
      { signal: controller.signal },
    ),
  );
  expect(CancelledError.is(error)).toBe(true);
  expect(isRetryable(error)).toBe(false);
});

test('ping, unknown event types and anything after message_stop are ignored', async () => {
  const after = 'data: {"type":"content_block_delta","index":9,"delta":{}}\n\ndata: not json\n\n';
  server.push(
    sseReply(
      sse(start, { type: 'ping' }, textStart, { type: 'future_event', x: 1 }, text('ok'), stop) +
        after,
    ),
  );
  const response = await modelFor(server).stream(request, () => undefined);
  expect(response.message).toEqual({ role: 'assistant', content: 'ok' });
});

test('a delta for a block that never started is a ModelProtocolError', async () => {
  server.push(sseReply(sse(start, text('x'), stop)));
  const error = await failure(modelFor(server).stream(request, () => undefined));
  expect((error as Error).message).toBe(
    'anthropic: protocol error: stream: content_block_delta for block 0, which never started',
  );
});

test('a text_delta for a tool_use block is a ModelProtocolError', async () => {
  const toolStart = {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'tool_use', id: 't1', name: 'f', input: {} },
  };
  server.push(sseReply(sse(start, toolStart, text('x'), stop)));
  const error = await failure(modelFor(server).stream(request, () => undefined));
  expect((error as Error).message).toBe(
    'anthropic: protocol error: stream: a text_delta arrived for a tool block',
  );
});

test('a finished tool_use block whose input is not valid JSON is a ModelProtocolError naming the call', async () => {
  const toolStart = {
    type: 'content_block_start',
    index: 0,
    content_block: { type: 'tool_use', id: 'toolu_x', name: 'lookup', input: {} },
  };
  const args = {
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'input_json_delta', partial_json: '{"q": ' },
  };
  server.push(
    sseReply(sse(start, toolStart, args, { type: 'content_block_stop', index: 0 }, stop)),
  );
  const error = await failure(modelFor(server).stream(request, () => undefined));
  expect((error as Error).message).toBe(
    'anthropic: protocol error: stream: the input of tool call "toolu_x" (lookup) is not valid JSON',
  );
});

test('a block index started twice is a ModelProtocolError', async () => {
  server.push(sseReply(sse(start, textStart, textStart, stop)));
  const error = await failure(modelFor(server).stream(request, () => undefined));
  expect((error as Error).message).toBe('anthropic: protocol error: stream: block 0 started twice');
});

test('usage: message_delta overrides message_start per field; cache tokens count as input', async () => {
  const richStart = {
    type: 'message_start',
    message: {
      model: 'm',
      usage: {
        input_tokens: 5,
        cache_read_input_tokens: 40,
        cache_creation_input_tokens: 2,
        output_tokens: 1,
      },
    },
  };
  const delta = {
    type: 'message_delta',
    delta: { stop_reason: 'end_turn' },
    usage: { output_tokens: 9 },
  };
  server.push(sseReply(sse(richStart, textStart, text('x'), delta, stop)));
  const response = await modelFor(server).stream(request, () => undefined);
  expect([response.usage, response.finishReason]).toEqual([
    { inputTokens: 47, outputTokens: 9, cacheReadTokens: 40, cacheWriteTokens: 2 },
    'stop',
  ]);
});

test('an onDelta error is rethrown as-is even when the caller aborted the signal in the handler', async () => {
  const controller = new AbortController();
  const thrown = new Error('consumer gone');
  server.push(sseReply(sse(start, textStart, text('a'), stop)));
  const error = await failure(
    modelFor(server).stream(
      request,
      () => {
        controller.abort(new Error('abandoned'));
        throw thrown;
      },
      { signal: controller.signal },
    ),
  );
  expect(error).toBe(thrown);
});
