/**
 * Where a Gemini stream ends (issue 12). Gemini has no end-of-stream event: the chunk carrying the
 * `finishReason` (with the final usage, as every recorded stream shows) is the last one, so the
 * call completes there without waiting for the server to close the connection, and a cut after
 * it does not matter. Cut before it, the stream is interrupted (retryable).
 */
import { isRetryable, type Delta } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { chunk, modelFor, rejection, request, sse, sseReply } from './helpers';
import { StreamInterruptedError } from '../../../support/internal-errors';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const ask = request([userMessage('hi')]);
const first = sse(chunk([{ text: 'Hello ' }], { usage: { promptTokenCount: 5 } }));
const last = sse(
  chunk([{ text: 'there.' }], {
    finishReason: 'STOP',
    usage: { promptTokenCount: 5, candidatesTokenCount: 3 },
  }),
);

async function run() {
  const deltas: Delta[] = [];
  const response = await modelFor(server).stream(ask, (delta) => {
    deltas.push(delta);
  });
  return { deltas, response };
}

const complete = {
  message: { role: 'assistant', content: 'Hello there.' },
  usage: { inputTokens: 5, outputTokens: 3 },
  finishReason: 'stop',
};

test('the call completes at the finishReason chunk while the server holds the connection open', async () => {
  server.push({ ...sseReply([first, last]), hold: true });
  const { deltas, response } = await run();
  expect(response).toMatchObject(complete);
  expect(deltas).toEqual([{ content: 'Hello ' }, { content: 'there.' }]);
});

test('a blocked prompt (promptFeedback, no candidates) completes while the connection is held', async () => {
  const blocked = {
    promptFeedback: { blockReason: 'SAFETY' },
    usageMetadata: { promptTokenCount: 4 },
  };
  server.push({ ...sseReply(sse(blocked)), hold: true });
  const { response } = await run();
  expect(response.finishReason).toBe('content_filter');
  expect(response.usage).toEqual({ inputTokens: 4, outputTokens: 0 });
});

test('a reset after the finishReason chunk completes the response', async () => {
  server.push(sseReply([first, last], true));
  expect((await run()).response).toMatchObject(complete);
});

test('a reset inside a frame after the finishReason chunk completes the response', async () => {
  server.push(sseReply([first, last, 'data: {"candidates":[{"cont'], true));
  expect((await run()).response).toMatchObject(complete);
});

describe('a stream cut before the finishReason chunk is interrupted (retryable)', () => {
  test('by EOF', async () => {
    server.push(sseReply([first]));
    const error = await rejection(run());
    expect([StreamInterruptedError.is(error), isRetryable(error)]).toEqual([true, true]);
  });

  test('by a reset', async () => {
    server.push(sseReply([first], true));
    const error = await rejection(run());
    expect([StreamInterruptedError.is(error), isRetryable(error)]).toEqual([true, true]);
  });

  test('by a reset inside the finishReason frame', async () => {
    server.push(sseReply([first, last.slice(0, last.length - 20)], true));
    const error = await rejection(run());
    expect([StreamInterruptedError.is(error), isRetryable(error)]).toEqual([true, true]);
  });
});
