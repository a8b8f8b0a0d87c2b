/**
 * How a streamed chat completion ends (issue 12): at `data: [DONE]` without waiting for the
 * server to close the connection; complete when the closing frame is cut after the finish reason
 * and the requested usage; interrupted when cut before. And tool calls that share an `index` but
 * carry different ids are separate calls.
 */
import fc from 'fast-check';
import { Agent, defineTool, type ModelRequest } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import { openai, openaiCompatible, type OpenAIOptions } from 'golem/providers/openai';
import { startReplayServer, type Reply, type ReplayServer } from '../../../support/replay-server';
import { SSE, failure } from './boundary-support';
import { chunk, chunkedFetch, collector, sse, usageChunk } from './support';
import { StreamInterruptedError } from '../../../support/internal-errors';

const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

function model(options: Partial<OpenAIOptions> = {}) {
  return openai({
    model: 'm',
    preset: 'openai',
    apiKey: 'sk-test',
    baseURL: server.url,
    ...options,
  });
}

const answer = [
  chunk({ content: 'Hello' }),
  chunk({ content: ' there' }, 'stop'),
  usageChunk(3, 2),
];

describe('the terminal event', () => {
  test('a complete stream whose connection stays open resolves at data: [DONE]', async () => {
    server.push({ headers: SSE, chunks: [sse(answer)], hold: true });
    const c = collector();
    const response = await model().stream(hi, c.onDelta);
    expect(response).toEqual({
      message: { role: 'assistant', content: 'Hello there' },
      usage: { inputTokens: 3, outputTokens: 2 },
      finishReason: 'stop',
      modelName: 'test-model',
      responseId: 'chatcmpl-test',
    });
    expect(c.text()).toBe('Hello there');
  });

  test('an Agent run over a held-open stream completes too', async () => {
    server.push({ headers: SSE, body: sse(answer), hold: true });
    const stream = new Agent({ model: model() }).runStream('hi');
    for await (const delta of stream) expect(delta).toBeDefined();
    expect((await stream.result).output).toBe('Hello there');
  });
});

describe('a cut closing frame', () => {
  const cut = (frames: unknown[], how: 'eof' | 'reset'): Reply => ({
    headers: SSE,
    chunks: [sse(frames, false)],
    reset: how === 'reset',
  });

  test.each(['eof', 'reset'] as const)(
    'after the finish reason and the final usage (%s): the call completes',
    async (how) => {
      server.push(cut(answer, how));
      const response = await model().stream(hi, () => undefined);
      expect([response.message.content, response.usage, response.finishReason]).toEqual([
        'Hello there',
        { inputTokens: 3, outputTokens: 2 },
        'stop',
      ]);
    },
  );

  test.each(['eof', 'reset'] as const)(
    'after the finish reason but before the requested usage (%s): StreamInterruptedError',
    async (how) => {
      server.push(cut(answer.slice(0, 2), how));
      const error = await failure(model().stream(hi, () => undefined));
      expect(StreamInterruptedError.is(error)).toBe(true);
    },
  );

  test('before the finish reason: StreamInterruptedError, as before', async () => {
    server.push(cut([chunk({ content: 'Hel' }), usageChunk(3, 2)], 'reset'));
    const error = await failure(model().stream(hi, () => undefined));
    expect(error).toMatchObject({ kind: 'StreamInterruptedError', retryable: true });
  });

  test('when usage was not requested, the finish reason alone settles the stream', async () => {
    server.push(cut(answer.slice(0, 2), 'eof'));
    const mistral = openaiCompatible('mistral', { model: 'm', apiKey: 'k-1', baseURL: server.url });
    const response = await mistral.stream(hi, () => undefined);
    expect(server.requests[0]?.json).not.toHaveProperty('stream_options');
    expect(response.message.content).toBe('Hello there');
  });
});

/** Wire fragments of a call: the first carries id and name, the rest only argument text. */
function fragments(index: number, id: string, name: string, args: string[]): unknown[] {
  return args.map((text, i) =>
    chunk({
      tool_calls: [
        i === 0
          ? { index, id, type: 'function', function: { name, arguments: text } }
          : { index, function: { arguments: text } },
      ],
    }),
  );
}

async function streamed(frames: unknown[]) {
  const bytes = new TextEncoder().encode(
    sse([...frames, chunk({}, 'tool_calls'), usageChunk(1, 1)]),
  );
  const m = openai({
    model: 'm',
    preset: 'openai',
    apiKey: 'sk-test',
    fetch: chunkedFetch([bytes]),
  });
  const c = collector();
  const response = await m.stream(hi, c.onDelta);
  return { calls: response.message.toolCalls ?? [], deltas: c.deltas };
}

describe('tool calls sharing an index', () => {
  test.each([
    [
      'two ids at index 0 are two calls',
      [...fragments(0, 'a', 'f', ['{"x":', '1}']), ...fragments(0, 'b', 'g', ['{"y":', '2}'])],
      [
        { id: 'a', name: 'f', args: '{"x":1}' },
        { id: 'b', name: 'g', args: '{"y":2}' },
      ],
    ],
    [
      'a repeated id continues its call',
      [
        ...fragments(0, 'a', 'f', ['{"x":']),
        chunk({ tool_calls: [{ index: 0, id: 'a', function: { arguments: '1}' } }] }),
      ],
      [{ id: 'a', name: 'f', args: '{"x":1}' }],
    ],
    [
      'fragments without an id continue the latest call at the index',
      [
        ...fragments(0, 'a', 'f', ['{}']),
        ...fragments(0, 'b', 'g', ['{"y"', ':2}']),
        ...fragments(1, 'c', 'h', ['{"z":3}']),
      ],
      [
        { id: 'a', name: 'f', args: '{}' },
        { id: 'b', name: 'g', args: '{"y":2}' },
        { id: 'c', name: 'h', args: '{"z":3}' },
      ],
    ],
  ])('%s', async (_, frames, calls) => {
    expect((await streamed(frames)).calls).toEqual(calls);
  });

  test('the deltas announce the second call with its own index, id and name', async () => {
    const { deltas } = await streamed([
      ...fragments(0, 'a', 'f', ['{}']),
      ...fragments(0, 'b', 'g', ['{"y":', '2}']),
    ]);
    expect(deltas.map((d) => d.toolCalls?.[0])).toEqual([
      { index: 0, id: 'a', name: 'f', argsFragment: '{}' },
      { index: 1, id: 'b', name: 'g', argsFragment: '{"y":' },
      { index: 1, argsFragment: '2}' },
    ]);
  });

  test('property: calls streamed one after another at the same index keep their own arguments', async () => {
    const call = fc.record({
      args: fc.array(fc.string({ maxLength: 6 }), { minLength: 1, maxLength: 4 }),
      name: fc.constantFrom('f', 'g', 'h'),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(call, { minLength: 1, maxLength: 5 }),
        fc.boolean(),
        async (calls, sameIndex) => {
          const frames = calls.flatMap((c, i) =>
            fragments(sameIndex ? 0 : i, `id-${i}`, c.name, ['{"v":', ...c.args, '0}']),
          );
          const expected = calls.map((c, i) => ({
            id: `id-${i}`,
            name: c.name,
            args: ['{"v":', ...c.args, '0}'].join(''),
          }));
          expect((await streamed(frames)).calls).toEqual(expected);
        },
      ),
      { numRuns: 100 },
    );
  });
});

test('end to end: an Agent executes both calls of a same-index stream', async () => {
  const seen: unknown[] = [];
  const echo = (name: string) =>
    defineTool({
      name,
      schema: { type: 'object' },
      execute: (args) => {
        seen.push([name, args]);
        return 'done';
      },
    });
  server.push(
    {
      headers: SSE,
      body: sse([
        ...fragments(0, 'call_1', 'first', ['{"n":', '1}']),
        ...fragments(0, 'call_2', 'second', ['{"n":', '2}']),
        chunk({}, 'tool_calls'),
        usageChunk(5, 5),
      ]),
    },
    { headers: SSE, body: sse([chunk({ content: 'both done' }, 'stop'), usageChunk(9, 2)]) },
  );
  const agent = new Agent({ model: model(), tools: [echo('first'), echo('second')] });
  const stream = agent.runStream('go');
  for await (const delta of stream) expect(delta).toBeDefined();
  expect((await stream.result).output).toBe('both done');
  expect(seen).toEqual([
    ['first', { n: 1 }],
    ['second', { n: 2 }],
  ]);
  expect(server.requests[1]?.json).toMatchObject({
    messages: [
      { role: 'user', content: 'go' },
      {
        role: 'assistant',
        tool_calls: [
          { id: 'call_1', function: { name: 'first', arguments: '{"n":1}' } },
          { id: 'call_2', function: { name: 'second', arguments: '{"n":2}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1' },
      { role: 'tool', tool_call_id: 'call_2' },
    ],
  });
});
