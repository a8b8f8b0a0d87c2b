/** Streaming: deltas, stream/generate equivalence, the finishReason terminal rule, error frames. */
import { ModelHTTPError, type Delta, type ModelResponse } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import {
  chunk,
  collapse,
  frames,
  jsonReply,
  modelFor,
  ownText,
  rejection,
  request,
  sse,
  sseReply,
} from './helpers';
import { StreamInterruptedError } from '../../../support/internal-errors';

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

async function stream(body: string, model = modelFor(server)) {
  server.push(sseReply(body));
  const deltas: Delta[] = [];
  const response = await model.stream(request([userMessage('q')]), (delta) => {
    deltas.push(delta);
  });
  return { response, deltas };
}

const streamed: [string, () => string][] = [
  ['weather-answer.stream (own)', () => ownText('weather-answer.stream.sse')],
];

test.each(streamed)(
  '%s: the streamed response equals generate on the same content',
  async (_name, body) => {
    const { response } = await stream(body());
    server.push(jsonReply(collapse(frames(body()))));
    const generated: ModelResponse = await modelFor(server).generate(request([userMessage('q')]));
    expect(response).toEqual(generated);
  },
);

describe('deltas', () => {
  test('a streamed call still open at the finish reason is closed with its args', async () => {
    const { response, deltas } = await stream(
      sse(
        chunk([{ functionCall: { name: 'f', willContinue: true } }]),
        chunk(
          [
            {
              functionCall: {
                partialArgs: [
                  { jsonPath: '$.n', numberValue: 2 },
                  { jsonPath: '$.flags[0]', boolValue: true },
                  { jsonPath: "$['odd key']", nullValue: null },
                ],
                willContinue: true,
              },
            },
          ],
          { finishReason: 'STOP' },
        ),
      ),
    );
    expect(response.message.toolCalls).toEqual([
      { id: 'f_1', name: 'f', args: '{"n":2,"flags":[true],"odd key":null}' },
    ]);
    expect(deltas.at(-1)).toEqual({
      toolCalls: [{ index: 0, argsFragment: '{"n":2,"flags":[true],"odd key":null}' }],
    });
  });

  test('an async onDelta is awaited before the next fragment is read (order kept)', async () => {
    server.push(
      sseReply(sse(chunk([{ text: 'a' }]), chunk([{ text: 'b' }], { finishReason: 'STOP' }))),
    );
    const log: string[] = [];
    await modelFor(server).stream(request([userMessage('q')]), async (delta) => {
      log.push(`start ${delta.content ?? ''}`);
      await new Promise<void>((resolve) => setImmediate(resolve));
      log.push(`end ${delta.content ?? ''}`);
    });
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
  });

  test('an onDelta error stops the stream and is rethrown as-is', async () => {
    server.push(
      sseReply(sse(chunk([{ text: 'a' }]), chunk([{ text: 'b' }], { finishReason: 'STOP' }))),
    );
    const boom = new Error('consumer failed');
    let calls = 0;
    const error = await rejection(
      modelFor(server).stream(request([userMessage('q')]), () => {
        calls++;
        throw boom;
      }),
    );
    expect(error).toBe(boom);
    expect(calls).toBe(1);
  });
});

describe('end of stream (Gemini has no terminal event)', () => {
  test('PA-6: EOF without any finishReason is a retryable StreamInterruptedError', async () => {
    const deltas: Delta[] = [];
    server.push(sseReply(sse(chunk([{ text: 'half an ans' }]))));
    const error = await rejection(
      modelFor(server).stream(request([userMessage('q')]), (d) => {
        deltas.push(d);
      }),
    );
    expect(StreamInterruptedError.is(error)).toBe(true);
    expect((error as StreamInterruptedError).retryable).toBe(true);
    expect((error as Error).message).toContain('finishReason');
    expect(deltas).toEqual([{ content: 'half an ans' }]);
  });

  test('an empty 200 stream is interrupted too', async () => {
    server.push(sseReply(''));
    const error = await rejection(
      modelFor(server).stream(request([userMessage('q')]), () => undefined),
    );
    expect(StreamInterruptedError.is(error)).toBe(true);
  });

  test('the chunk with the finish reason (and the final usage) ends the stream; later chunks are not read', async () => {
    const { response } = await stream(
      sse(
        chunk([{ text: 'done' }], {
          finishReason: 'STOP',
          usage: { promptTokenCount: 3, candidatesTokenCount: 1 },
        }),
        chunk([{ text: ' and more' }], { usage: { promptTokenCount: 9, candidatesTokenCount: 9 } }),
      ),
    );
    expect(response.message.content).toBe('done');
    expect(response.usage).toEqual({ inputTokens: 3, outputTokens: 1 });
  });

  test('a blocked prompt ends the stream as content_filter', async () => {
    const { response } = await stream(sse(JSON.parse(ownText('blocked-prompt.json'))));
    expect(response.finishReason).toBe('content_filter');
  });
});

describe('error frames', () => {
  test('an {error} frame with an HTTP code is a ModelHTTPError carrying it (503 → retryable)', async () => {
    const deltas: Delta[] = [];
    server.push(sseReply(ownText('error-frame.stream.sse')));
    const error = await rejection(
      modelFor(server).stream(request([userMessage('q')]), (d) => {
        deltas.push(d);
      }),
    );
    expect(ModelHTTPError.is(error)).toBe(true);
    expect(error).toMatchObject({
      status: 503,
      code: 'UNAVAILABLE',
      retryable: true,
      message: 'gemini: HTTP 503: The model is overloaded. Please try again later.',
    });
    expect(deltas).toEqual([{ content: 'Partial answer' }]);
  });

  test('an {error} frame without an HTTP code is a retryable StreamInterruptedError', async () => {
    server.push(sseReply(sse({ error: { message: 'internal', status: 'INTERNAL' } })));
    const error = await rejection(
      modelFor(server).stream(request([userMessage('q')]), () => undefined),
    );
    expect(StreamInterruptedError.is(error)).toBe(true);
    expect((error as StreamInterruptedError).retryable).toBe(true);
  });

  test('a 429 error frame keeps the RetryInfo delay', async () => {
    server.push(sseReply(sse(JSON.parse(ownText('retry-info-429.json')))));
    const error = await rejection(
      modelFor(server).stream(request([userMessage('q')]), () => undefined),
    );
    expect(error).toMatchObject({ status: 429, code: 'RESOURCE_EXHAUSTED', retryAfter: 34400 });
  });
});
