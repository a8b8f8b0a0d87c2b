/**
 * Streaming (spec §18.1): deltas in arrival order, tool-call fragments by index, the assembled
 * response canonical and identical to `generate`, handler errors rethrown as-is.
 */
import { CancelledError } from 'golem';
import { userMessage } from '../../../../src/core/contract/message';
import type { Delta, ModelRequest } from 'golem';
import { openai } from 'golem/providers/openai';
import { startReplayServer, type ReplayServer } from '../../../support/replay-server';
import { chunk, collector, completion, sse, usageChunk } from './support';
import { StreamInterruptedError } from '../../../support/internal-errors';

const SSE = { 'content-type': 'text/event-stream' };
const hi: ModelRequest = { messages: [userMessage('hi')], tools: [] };

let server: ReplayServer;
beforeEach(async () => {
  server = await startReplayServer();
});
afterEach(async () => {
  await server.close();
});

const model = () =>
  openai({ model: 'm', preset: 'openai', apiKey: 'sk-test', baseURL: server.url });

test('text, reasoning and usage: deltas in order and the assembled response', async () => {
  server.push({
    headers: SSE,
    body: sse([
      chunk({ role: 'assistant', content: '', reasoning_content: 'Think' }),
      chunk({ reasoning_content: 'ing.' }),
      chunk({ content: 'Hello' }),
      chunk({ content: ', 世界 👋🏽' }),
      chunk({}, 'stop'),
      usageChunk(11, 22),
    ]),
  });
  const c = collector();
  const response = await model().stream(hi, c.onDelta);
  expect(c.deltas).toEqual([
    { thinking: [{ index: 0, text: 'Think' }] },
    { thinking: [{ index: 0, text: 'ing.' }] },
    { content: 'Hello' },
    { content: ', 世界 👋🏽' },
  ]);
  expect(response).toEqual({
    message: {
      role: 'assistant',
      content: 'Hello, 世界 👋🏽',
      thinking: [{ text: 'Thinking.', provider: 'openai', model: 'test-model' }],
    },
    usage: { inputTokens: 11, outputTokens: 22 },
    finishReason: 'stop',
    modelName: 'test-model',
    responseId: 'chatcmpl-test',
  });
});

test('tool-call fragments: id and name on the first fragment, args after, keyed by index', async () => {
  server.push({
    headers: SSE,
    body: sse([
      chunk({
        tool_calls: [
          { index: 0, id: 'call_a', type: 'function', function: { name: 'search', arguments: '' } },
        ],
      }),
      chunk({
        tool_calls: [
          {
            index: 1,
            id: 'call_b',
            type: 'function',
            function: { name: 'fetch', arguments: '{"u' },
          },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '{"q":' } }] }),
      chunk({ tool_calls: [{ index: 1, function: { arguments: 'rl":"x"}' } }] }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: '"cats"}' } }] }),
      chunk({}, 'tool_calls'),
    ]),
  });
  const c = collector();
  const response = await model().stream(hi, c.onDelta);
  expect(c.deltas).toEqual([
    { toolCalls: [{ index: 0, id: 'call_a', name: 'search' }] },
    { toolCalls: [{ index: 1, id: 'call_b', name: 'fetch', argsFragment: '{"u' }] },
    { toolCalls: [{ index: 0, argsFragment: '{"q":' }] },
    { toolCalls: [{ index: 1, argsFragment: 'rl":"x"}' }] },
    { toolCalls: [{ index: 0, argsFragment: '"cats"}' }] },
  ]);
  expect(response.message.toolCalls).toEqual([
    { id: 'call_a', name: 'search', args: '{"q":"cats"}' },
    { id: 'call_b', name: 'fetch', args: '{"url":"x"}' },
  ]);
  expect(response.usage).toEqual({ inputTokens: 0, outputTokens: 0 });
});

test('ADV-5 arguments are assembled from every fragment before the call is returned', async () => {
  server.push({
    headers: SSE,
    body: sse([
      chunk({
        tool_calls: [
          { index: 0, id: 'call_1', function: { name: 'search', arguments: '{"query":"test"' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ', "limit":10}' } }] }),
      chunk({}, 'tool_calls'),
    ]),
  });
  const response = await model().stream(hi, () => undefined);
  expect(response.message.toolCalls).toEqual([
    { id: 'call_1', name: 'search', args: '{"query":"test", "limit":10}' },
  ]);
});

test('ADV-5 a first fragment that is already valid JSON does not end the call', async () => {
  server.push({
    headers: SSE,
    body: sse([
      chunk({
        tool_calls: [
          { index: 0, id: 'call_1', function: { name: 'search', arguments: '{"query":"test"}' } },
        ],
      }),
      chunk({ tool_calls: [{ index: 0, function: { arguments: ', "limit":10}' } }] }),
      chunk({}, 'tool_calls'),
    ]),
  });
  const response = await model().stream(hi, () => undefined);
  expect(response.message.toolCalls).toEqual([
    { id: 'call_1', name: 'search', args: '{"query":"test"}, "limit":10}' },
  ]);
});

test('ADV-5 a stream cut mid-arguments yields no response (nothing executes on partial args)', async () => {
  server.push({
    headers: SSE,
    body: sse(
      [
        chunk({
          tool_calls: [
            { index: 0, id: 'call_1', function: { name: 'search', arguments: '{"query":"test"}' } },
          ],
        }),
      ],
      false,
    ),
  });
  const error: unknown = await model()
    .stream(hi, () => undefined)
    .catch((e: unknown) => e);
  expect(StreamInterruptedError.is(error)).toBe(true);
  expect((error as StreamInterruptedError).retryable).toBe(true);
});

test('calls without an index are keyed by id; calls without an id get call-<n>', async () => {
  server.push({
    headers: SSE,
    body: sse([
      chunk({ tool_calls: [{ id: 'x1', function: { name: 'a', arguments: '{"n":' } }] }),
      chunk({ tool_calls: [{ id: 'x1', function: { arguments: '1}' } }] }),
      chunk({ tool_calls: [{ index: 7, function: { name: 'b', arguments: '' } }] }),
      chunk({}, 'tool_calls'),
    ]),
  });
  const c = collector();
  const response = await model().stream(hi, c.onDelta);
  expect(response.message.toolCalls).toEqual([
    { id: 'x1', name: 'a', args: '{"n":1}' },
    { id: 'call-2', name: 'b', args: '{}' },
  ]);
  expect(c.deltas[2]).toEqual({ toolCalls: [{ index: 1, id: 'call-2', name: 'b' }] });
});

test('the streamed response equals the generate response for the same content', async () => {
  const message = {
    content: 'Checking.',
    reasoning_content: 'need data',
    tool_calls: [
      { id: 'call_1', type: 'function', function: { name: 'lookup', arguments: '{"id":3}' } },
    ],
  };
  server.push(
    {
      body: JSON.stringify(
        completion(message, 'tool_calls', { prompt_tokens: 9, completion_tokens: 4 }),
      ),
    },
    {
      headers: SSE,
      body: sse([
        chunk({ role: 'assistant', reasoning_content: 'need ' }),
        chunk({ reasoning_content: 'data' }),
        chunk({ content: 'Checking.' }),
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_1',
              type: 'function',
              function: { name: 'lookup', arguments: '{"id"' },
            },
          ],
        }),
        chunk({ tool_calls: [{ index: 0, function: { arguments: ':3}' } }] }),
        chunk({}, 'tool_calls'),
        usageChunk(9, 4),
      ]),
    },
  );
  const generated = await model().generate(hi);
  const streamed = await model().stream(hi, () => undefined);
  expect(streamed).toEqual(generated);
});

test('an onDelta error stops the stream and is rethrown as-is', async () => {
  server.push({
    headers: SSE,
    body: sse([chunk({ content: 'a' }), chunk({ content: 'b' }), chunk({}, 'stop')]),
  });
  const boom = new Error('handler failed');
  const seen: Delta[] = [];
  const error: unknown = await model()
    .stream(hi, (d) => {
      seen.push(d);
      throw boom;
    })
    .catch((e: unknown) => e);
  expect(error).toBe(boom);
  expect(seen).toEqual([{ content: 'a' }]);
});

test('an async onDelta is awaited before the next delta is delivered', async () => {
  server.push({
    headers: SSE,
    body: sse([chunk({ content: 'a' }), chunk({ content: 'b' }), chunk({}, 'stop')]),
  });
  const log: string[] = [];
  await model().stream(hi, async (d) => {
    log.push(`start ${d.content ?? ''}`);
    await Promise.resolve();
    await Promise.resolve();
    log.push(`end ${d.content ?? ''}`);
  });
  expect(log).toEqual(['start a', 'end a', 'start b', 'end b']);
});

test('frames after [DONE], comments, empty data and role-only deltas are ignored', async () => {
  server.push({
    headers: SSE,
    body:
      ': OPENROUTER PROCESSING\n\n' +
      'data:\n\n' +
      `data: ${JSON.stringify(chunk({ role: 'assistant' }))}\n\n` +
      `data: ${JSON.stringify(chunk({ content: 'ok' }, 'stop'))}\n\n` +
      'data: [DONE]\n\n' +
      `data: ${JSON.stringify(chunk({ content: 'late' }))}\n\n`,
  });
  const c = collector();
  const response = await model().stream(hi, c.onDelta);
  expect(c.deltas).toEqual([{ content: 'ok' }]);
  expect(response.message.content).toBe('ok');
});

test('a finish_reason of length is reported lower-case as "length"', async () => {
  server.push({ headers: SSE, body: sse([chunk({ content: 'trunc' }, 'length')]) });
  expect((await model().stream(hi, () => undefined)).finishReason).toBe('length');
});

test('the caller aborting mid-stream rejects with CancelledError after the deltas so far', async () => {
  const controller = new AbortController();
  const fetch = (_url: string, init: RequestInit) => {
    const body = new ReadableStream<Uint8Array>({
      start(stream) {
        stream.enqueue(new TextEncoder().encode(sse([chunk({ content: 'first' })], false)));
        init.signal?.addEventListener('abort', () => {
          stream.error(init.signal?.reason);
        });
      },
    });
    return Promise.resolve(new Response(body));
  };
  const c = collector();
  const error: unknown = await openai({ model: 'm', preset: 'openai', apiKey: 'sk-test', fetch })
    .stream(
      hi,
      (d) => {
        c.onDelta(d);
        controller.abort();
      },
      { signal: controller.signal },
    )
    .catch((e: unknown) => e);
  expect(CancelledError.is(error)).toBe(true);
  expect(c.text()).toBe('first');
});
