/**
 * Where an Anthropic stream ends (issue 12): at `message_stop`, without waiting for the server to
 * close the connection; and, when the closing frame is cut, as soon as the `message_delta` with
 * the stop reason and the final usage arrived (what Anthropic's own SDKs do with the same bytes).
 * Cut before that, it is still an interrupted stream.
 */
import { isRetryable, type Delta, type ModelRequest } from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { modelFor, sse, sseReply } from './support';
import { StreamInterruptedError } from '../../../support/internal-errors';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(() => server.close());

const request: ModelRequest = { messages: [{ role: 'user', content: 'hi' }], tools: [] };
const head = sse(
  { type: 'message_start', message: { model: 'claude-test', usage: { input_tokens: 5 } } },
  { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hello ' } },
  { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'there.' } },
  { type: 'content_block_stop', index: 0 },
);
const final = sse({
  type: 'message_delta',
  delta: { stop_reason: 'end_turn', stop_sequence: null },
  usage: { output_tokens: 3 },
});
const stop = sse({ type: 'message_stop' });

async function run(): Promise<{ deltas: Delta[]; response: Awaited<ReturnType<typeof call>> }> {
  const deltas: Delta[] = [];
  const response = await call(deltas);
  return { deltas, response };
}

function call(deltas: Delta[]) {
  return modelFor(server).stream(request, (delta) => {
    deltas.push(delta);
  });
}

async function failure(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error('expected a failure');
    },
    (error: unknown) => error,
  );
}

const complete = {
  message: { role: 'assistant', content: 'Hello there.' },
  usage: { inputTokens: 5, outputTokens: 3 },
  finishReason: 'stop',
};

test('the call completes at message_stop while the server holds the connection open', async () => {
  server.push({ ...sseReply([head, final, stop]), hold: true });
  const { deltas, response } = await run();
  expect(response).toMatchObject(complete);
  expect(deltas).toEqual([{ content: 'Hello ' }, { content: 'there.' }]);
});

test('events after message_stop are not read', async () => {
  const late = sse({
    type: 'content_block_delta',
    index: 0,
    delta: { type: 'text_delta', text: ' late' },
  });
  server.push({ ...sseReply([head, final, stop, late]), hold: true });
  const { response } = await run();
  expect(response.message.content).toBe('Hello there.');
});

describe('the closing frame cut after the stop reason and final usage arrived', () => {
  test('EOF without message_stop completes the response', async () => {
    server.push(sseReply([head, final]));
    expect((await run()).response).toMatchObject(complete);
  });

  test('a reset instead of message_stop completes the response', async () => {
    server.push({ ...sseReply([head, final]), reset: true });
    expect((await run()).response).toMatchObject(complete);
  });

  test('a reset inside the message_stop frame completes the response', async () => {
    server.push({ ...sseReply([head, final, 'event: message_stop\ndata: {"ty']), reset: true });
    expect((await run()).response).toMatchObject(complete);
  });

  test('an error event after message_delta is still an error', async () => {
    const error = sse({
      type: 'error',
      error: { type: 'overloaded_error', message: 'Overloaded' },
    });
    server.push(sseReply([head, final, error]));
    expect(StreamInterruptedError.is(await failure(call([])))).toBe(true);
  });
});

describe('a stream cut before the stop reason and final usage is interrupted (retryable)', () => {
  test('by EOF', async () => {
    server.push(sseReply([head]));
    const error = await failure(call([]));
    expect([StreamInterruptedError.is(error), isRetryable(error)]).toEqual([true, true]);
  });

  test('by a reset', async () => {
    server.push({ ...sseReply([head]), reset: true });
    const error = await failure(call([]));
    expect([StreamInterruptedError.is(error), isRetryable(error)]).toEqual([true, true]);
  });

  test('by a reset inside the message_delta frame', async () => {
    server.push({ ...sseReply([head, final.slice(0, final.length - 10)]), reset: true });
    const error = await failure(call([]));
    expect([StreamInterruptedError.is(error), isRetryable(error)]).toEqual([true, true]);
  });

  test('a message_delta without usage does not settle the response', async () => {
    server.push(
      sseReply([head, sse({ type: 'message_delta', delta: { stop_reason: 'end_turn' } })]),
    );
    expect(StreamInterruptedError.is(await failure(call([])))).toBe(true);
  });
});
