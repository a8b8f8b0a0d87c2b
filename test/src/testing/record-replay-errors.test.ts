/**
 * Replay's contract on the failure side and under re-splitting: a request that differs from the
 * recording is a ReplayMismatchError naming the first differing field; one request too many, or
 * recorded exchanges never requested, a ReplayUnmatchedError; any split of a streamed body gives
 * the same response; a recorded interruption replays as one; malformed fixtures are refused.
 */
import fc from 'fast-check';
import { type StreamingModel } from 'golem';
import { parseFixture, recordingFetch, replayFetch, type Fixture } from 'golem/testing';
import { startReplayServer } from '../../support/replay-server';
import { ADAPTERS, call, providerReply, request } from './record-replay-support';

import {
  FixtureFormatError,
  ModelTransportError,
  ReplayMismatchError,
  ReplayUnmatchedError,
  StreamInterruptedError,
} from '../../support/internal-errors';
const openai = ADAPTERS.find((a) => a.provider === 'openai')!;
const BASE = 'http://127.0.0.1:9/v1';
let generated: Fixture;
let streamed: Fixture;
let interrupted: Fixture;

beforeAll(async () => {
  const server = await startReplayServer([
    providerReply('openai', 'completion-text.json'),
    providerReply('openai', 'parallel-tools.stream.sse'),
    {
      headers: { 'content-type': 'text/event-stream' },
      chunks: ['data: {"id":"x","choices":[{"index":0,"delta":{"content":"Hal'],
      reset: true,
    },
  ]);
  const record = async (mode: 'generate' | 'stream'): Promise<Fixture> => {
    const recorder = recordingFetch();
    await call(
      openai.build(BASE, (url, init) => recorder(url.replace(BASE, `${server.url}/v1`), init)),
      mode,
    ).catch(() => undefined);
    return recorder.settled();
  };
  generated = await record('generate');
  streamed = await record('stream');
  interrupted = await record('stream');
  await server.close();
});

const caught = (run: () => void): unknown => {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
};

const model = (fetch: Parameters<typeof openai.build>[1]): StreamingModel =>
  openai.build(BASE, fetch);

test('a changed prompt is a ReplayMismatchError at the first differing body field', async () => {
  const replay = replayFetch(generated);
  const changed = {
    ...request,
    messages: [{ role: 'user' as const, content: 'Weather in Accra?' }],
  };
  const failure: unknown = await model(replay)
    .generate(changed)
    .catch((e: unknown) => e);
  expect(ModelTransportError.is(failure) && failure.message).toMatch(
    /request 1 differs from the recording at body\.messages\[0\]\.content/,
  );
  const error = caught(() => {
    replay.assertDone();
  });
  expect(ReplayMismatchError.is(error)).toBe(true);
  expect(error).toMatchObject({
    path: 'body.messages[0].content',
    recorded: '"What is the weather in Lagos?"',
    received: '"Weather in Accra?"',
  });
  expect(replay.served).toBe(0); // a mismatch consumes nothing
});

test("match: 'sequence' serves in order without comparing bodies, but still checks the endpoint", async () => {
  const replay = replayFetch(generated, { match: 'sequence' });
  const changed = { ...request, messages: [{ role: 'user' as const, content: 'anything' }] };
  const response = await model(replay).generate(changed);
  expect(response.message.content).toEqual(expect.any(String));
  replay.assertDone();

  const wrongPath = replayFetch(generated, { match: 'sequence' });
  await expect(wrongPath(`${BASE}/embeddings`, { method: 'POST', body: '{}' })).rejects.toThrow(
    ReplayMismatchError,
  );
  expect(
    caught(() => {
      wrongPath.assertDone();
    }),
  ).toMatchObject({
    kind: 'ReplayMismatchError',
    path: 'url',
    recorded: '"/v1/chat/completions"',
    received: '"/v1/embeddings"',
  });
});

test('one request too many is a ReplayUnmatchedError (extra); too few, one at assertDone (unused)', async () => {
  const replay = replayFetch(generated);
  await call(model(replay), 'generate');
  await expect(call(model(replay), 'generate')).rejects.toThrow(
    /request 2 has no recorded exchange/,
  );
  expect(
    caught(() => {
      replay.assertDone();
    }),
  ).toMatchObject({
    kind: 'ReplayUnmatchedError',
    reason: 'extra',
  });

  const unused = replayFetch([generated, streamed]);
  await call(model(unused), 'generate');
  const error = caught(() => {
    unused.assertDone();
  });
  expect(ReplayUnmatchedError.is(error) && [error.reason, error.served, error.recorded]).toEqual([
    'unused',
    1,
    2,
  ]);
});

test('onUnmatched answers extra requests instead of failing, consuming nothing', async () => {
  const recordedStream = replayFetch(streamed);
  const replay = replayFetch(generated, { onUnmatched: recordedStream });
  await call(model(replay), 'generate');
  const extra = await call(model(replay), 'stream');
  expect(extra.response.message.toolCalls).toHaveLength(2);
  expect(() => {
    replay.assertDone();
  }).not.toThrow();
});

test('property: any re-split of a streamed body replays into the same response and fragments', async () => {
  const baseline = await call(model(replayFetch(streamed)), 'stream');
  const size = JSON.stringify(streamed).length;
  await fc.assert(
    fc.asyncProperty(fc.array(fc.nat({ max: size }), { maxLength: 40 }), async (offsets) => {
      const replay = replayFetch(streamed, { split: () => offsets });
      const again = await call(model(replay), 'stream');
      expect(again.response).toEqual(baseline.response);
      expect(again.deltas.map((d) => d.content ?? '').join('')).toBe(
        baseline.deltas.map((d) => d.content ?? '').join(''),
      );
      expect(JSON.stringify(again.response.message.toolCalls)).toBe(
        JSON.stringify(baseline.response.message.toolCalls),
      );
    }),
    { numRuns: 60 },
  );
  const bytewise = await call(model(replayFetch(streamed, { split: 1 })), 'stream');
  expect(bytewise.response).toEqual(baseline.response);
});

test('a stream cut while recording is recorded as interrupted and replays as the same failure', async () => {
  const response = interrupted.exchanges[0]!.response;
  expect(response.interrupted).toEqual(expect.any(String));
  expect(response.bodyText?.[0]).toContain('"Hal');
  const failure: unknown = await call(model(replayFetch(interrupted)), 'stream').catch(
    (e: unknown) => e,
  );
  expect(StreamInterruptedError.is(failure)).toBe(true);
});

test('an aborted signal rejects before anything is served', async () => {
  const replay = replayFetch(generated);
  const controller = new AbortController();
  controller.abort();
  await expect(model(replay).generate(request, { signal: controller.signal })).rejects.toThrow();
  expect(replay.remaining).toBe(1);
});

test.each([
  [{ golemFixture: 2, name: 'x', exchanges: [] }, 'golemFixture must be 1'],
  [{ golemFixture: 1, name: 'x' }, 'exchanges must be an array'],
  [
    {
      golemFixture: 1,
      name: 'x',
      exchanges: [{ request: { method: 'POST', url: 'not a url' }, response: { status: 200 } }],
    },
    'exchanges[0].request.url must be an absolute URL',
  ],
  [
    {
      golemFixture: 1,
      name: 'x',
      exchanges: [{ request: { method: 'POST', url: 'https://a.b/' }, response: { status: 99 } }],
    },
    'exchanges[0].response.status must be an integer from 200 to 599',
  ],
  [
    {
      golemFixture: 1,
      name: 'x',
      exchanges: [
        {
          request: { method: 'POST', url: 'https://a.b/' },
          response: { status: 200, body: {}, bodyText: [] },
        },
      ],
    },
    'has body and bodyText; keep one body field',
  ],
  [
    {
      golemFixture: 1,
      name: 'x',
      exchanges: [
        {
          request: { method: 'POST', url: 'https://a.b/' },
          response: { status: 200, bodyBase64: ['%%%'] },
        },
      ],
    },
    'bodyBase64[0] is not base64',
  ],
])('a malformed fixture is refused with FixtureFormatError: %j', (value, message) => {
  const error = caught(() => parseFixture(value, 'bad.json'));
  expect(FixtureFormatError.is(error)).toBe(true);
  expect((error as Error).message).toContain(`fixture bad.json: `);
  expect((error as Error).message).toContain(message);
});

test('a fixture file that does not exist or is not JSON is a FixtureFormatError naming it', () => {
  expect(() => replayFetch('/no/such/fixture.json')).toThrow(
    /fixture \/no\/such\/fixture\.json: cannot be read/,
  );
});
