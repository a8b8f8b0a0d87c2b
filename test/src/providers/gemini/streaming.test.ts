/** Streaming: deltas, stream/generate equivalence, the finishReason terminal rule, error frames. */
import {
  ModelHTTPError,
  StreamInterruptedError,
  userMessage,
  type Delta,
  type ModelResponse,
} from 'golem';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import {
  chunk,
  jsonReply,
  modelFor,
  ownText,
  rejection,
  request,
  sharedText,
  sse,
  sseFromLines,
  sseReply,
} from './helpers';

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

function frames(body: string): Record<string, unknown>[] {
  return body
    .split(/\r?\n/)
    .filter((line) => line.startsWith('data: '))
    .map((line) => JSON.parse(line.slice(6)) as Record<string, unknown>);
}

/** All chunks of a stream collapsed into the single body `generateContent` would return. */
function collapse(chunks: Record<string, unknown>[]): Record<string, unknown> {
  type Candidate = { content?: { parts?: unknown[] }; finishReason?: string };
  const parts = chunks.flatMap(
    (c) => (c.candidates as Candidate[] | undefined)?.[0]?.content?.parts ?? [],
  );
  const last = chunks.at(-1) ?? {};
  const finishReason = chunks
    .map((c) => (c.candidates as Candidate[] | undefined)?.[0]?.finishReason)
    .find((f) => f !== undefined);
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason }],
    usageMetadata: last.usageMetadata,
    modelVersion: last.modelVersion,
  };
}

const streamed: [string, () => string][] = [
  ['g02-text.stream', () => sharedText('g02-text.stream.sse')],
  [
    'g03-text-thoughtsignature.stream',
    () => sseFromLines(sharedText('g03-text-thoughtsignature.stream.chunks.txt')),
  ],
  [
    'g06-tool-call-thoughtsignature.stream',
    () => sharedText('g06-tool-call-thoughtsignature.stream.sse'),
  ],
  ['g07-parallel-tool-calls.stream', () => sharedText('g07-parallel-tool-calls.stream.sse')],
  ['g10-thinking.stream', () => sharedText('g10-thinking.stream.sse')],
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
  test('TK-4: g10 thinking fragments (one block) precede the content of the same response', async () => {
    const { response, deltas } = await stream(sharedText('g10-thinking.stream.sse'));
    const kinds = deltas.map((d) => (d.thinking !== undefined ? 'thinking' : 'content'));
    // Four thought chunks, then the first answer chunk, whose part carries the signature (it
    // attaches to the thought block, so its fragment follows that chunk's text), then text only.
    expect(kinds.slice(0, 6)).toEqual([
      'thinking',
      'thinking',
      'thinking',
      'thinking',
      'content',
      'thinking',
    ]);
    expect(kinds.slice(6).every((k) => k === 'content')).toBe(true);
    const thinking = deltas.flatMap((d) => d.thinking ?? []);
    expect(new Set(thinking.map((t) => t.index))).toEqual(new Set([0]));
    expect(thinking.map((t) => t.text ?? '').join('')).toBe(response.message.thinking?.[0]?.text);
    expect(thinking.at(-1)?.signature).toBe(response.message.thinking?.[0]?.signature);
    expect(deltas.map((d) => d.content ?? '').join('')).toBe(response.message.content);
  });

  test('g07: a whole function call is one delta with id, name and the full args', async () => {
    const { deltas } = await stream(sharedText('g07-parallel-tool-calls.stream.sse'));
    expect(deltas).toEqual([
      {
        toolCalls: [
          {
            index: 0,
            id: 'secret_retrieval_tool_1',
            name: 'secret_retrieval_tool',
            argsFragment: '{"password":"mellon"}',
          },
        ],
      },
      {
        toolCalls: [
          {
            index: 1,
            id: 'secret_retrieval_tool_2',
            name: 'secret_retrieval_tool',
            argsFragment: '{"password":"radiance"}',
          },
        ],
      },
    ]);
  });

  test('g08 (Vertex partialArgs): id and name first, complete args when the call ends', async () => {
    const { response, deltas } = await stream(
      sseFromLines(sharedText('g08-vertex-partial-args.stream.chunks.txt')),
    );
    expect(deltas).toEqual([
      { toolCalls: [{ index: 0, id: 'getWeather_1', name: 'getWeather' }] },
      { toolCalls: [{ index: 0, argsFragment: '{"location":"Boston"}' }] },
      { toolCalls: [{ index: 1, id: 'getWeather_2', name: 'getWeather' }] },
      { toolCalls: [{ index: 1, argsFragment: '{"location":"San Francisco"}' }] },
    ]);
    expect(response.message.toolCalls?.[0]?.signature).toHaveLength(1032);
    expect(response.message.toolCalls?.[1]?.signature).toBeUndefined();
  });

  test('g03: content fragments, then the signature as a thinking fragment', async () => {
    const { deltas } = await stream(
      sseFromLines(sharedText('g03-text-thoughtsignature.stream.chunks.txt')),
    );
    expect(deltas.map((d) => Object.keys(d))).toEqual([['content'], ['content'], ['thinking']]);
    const fragment = deltas[2]?.thinking?.[0];
    expect(fragment?.index).toBe(0);
    expect(fragment?.signature).toHaveLength(916);
  });

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

  test('chunks after the finish reason (usage only) are accepted', async () => {
    const { response } = await stream(
      sse(chunk([{ text: 'done' }], { finishReason: 'STOP' }), {
        usageMetadata: { promptTokenCount: 3, candidatesTokenCount: 1 },
      }),
    );
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
